"""Model checkpoints between PyTorch and axial, for `tests/state_dict.rs`.

Two models: the digits MLP (`nn.Linear`s `hidden` 64 -> 64 and `out`
64 -> 10, as `oracle/torch_digits.py` and `examples/digits` have it) and a
MiniLM-sized BERT encoder block (`bench/torch_train.py`'s `Block`, named as
transformers' `BertLayer`; `examples/encoder_block/block.rs` in axial).

    bench/.venv/bin/python oracle/torch_state_dict.py

writes `tests/data/torch_mlp_state.pt` (the MLP's `state_dict()`, seeded,
saved with `torch.save`) and `tests/data/torch_mlp_state.json`: the MLP's
logits on `inputs()`, and PyTorch's `load_state_dict` error messages for a
state dict missing `out.bias` with an unexpected `out.scale`, and for one
whose `hidden.weight` is `[32, 64]`.

The other modes, run by the test:

    --block DIR          the block's state dict (seeded) to DIR/block.pt and
                         {"x": input, "y": output, "losses": the losses of
                         3 training steps from there (bench/torch_train.py's
                         step: AdamW's defaults)} to DIR/block_io.pt
    --check-mlp FILE     loads FILE (a state dict axial wrote) into the MLP
                         with `load_state_dict`, prints the logits as JSON
    --check-block FILE IO  loads FILE into the block, runs it on IO's "x",
                         prints the largest difference from IO's "y" as JSON
"""

import argparse
import json
import sys
from pathlib import Path

import torch
from torch import nn

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests/data"
sys.path.insert(0, str(ROOT / "bench"))
import torch_train  # noqa: E402

SEED = 20_261_206


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(64, 64)
        self.out = nn.Linear(64, 10)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


def inputs():
    """360 images of 64 pixels: (7·i mod 17) / 16 for element i."""
    return (torch.arange(360 * 64) * 7 % 17).float().div(16).reshape(360, 64)


def values(t):
    return [float(str(v)) for v in t.detach().flatten().numpy()]


def error_of(model, sd):
    try:
        model.load_state_dict(sd)
    except RuntimeError as e:
        return str(e)
    raise SystemExit("load_state_dict accepted a bad state dict")


def make():
    torch.manual_seed(SEED)
    mlp = Mlp()
    sd = mlp.state_dict()
    torch.save(sd, DATA / "torch_mlp_state.pt")
    missing = dict(sd)
    del missing["out.bias"]
    missing["out.scale"] = torch.ones(1)
    resized = dict(sd)
    resized["hidden.weight"] = torch.zeros(32, 64)
    record = {
        "logits": values(mlp(inputs())),
        "missing_unexpected": error_of(Mlp(), missing),
        "size_mismatch": error_of(Mlp(), resized),
    }
    (DATA / "torch_mlp_state.json").write_text(json.dumps(record) + "\n")
    print("wrote tests/data/torch_mlp_state.pt and .json")


def block(out):
    torch.manual_seed(SEED)
    model = torch_train.Block()
    x = torch.randn(torch_train.BATCH, torch_train.SEQ, torch_train.MODEL)
    torch.save(model.state_dict(), Path(out) / "block.pt")
    with torch.no_grad():
        y = model(x)
    opt = torch.optim.AdamW(model.parameters(), foreach=False)
    losses = torch.stack([torch_train.step(model, x, opt) for _ in range(3)])
    torch.save({"x": x, "y": y, "losses": losses}, Path(out) / "block_io.pt")


def check_mlp(path):
    mlp = Mlp()
    mlp.load_state_dict(torch.load(path, weights_only=True))
    print(json.dumps(values(mlp(inputs()))))


def check_block(path, io):
    model = torch_train.Block()
    model.load_state_dict(torch.load(path, weights_only=True))
    io = torch.load(io, weights_only=True)
    with torch.no_grad():
        diff = (model(io["x"]) - io["y"]).abs().max().item()
    print(json.dumps({"max_abs_diff": diff}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--block")
    parser.add_argument("--check-mlp")
    parser.add_argument("--check-block", nargs=2)
    args = parser.parse_args()
    if args.block:
        block(args.block)
    elif args.check_mlp:
        check_mlp(args.check_mlp)
    elif args.check_block:
        check_block(*args.check_block)
    else:
        make()
