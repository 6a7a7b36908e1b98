"""An AdamW state dict written by PyTorch, and the run it belongs to, for
`tests/optim_state.rs`.

Two float32 parameters (shapes [2, 3] and [4]) take 6 steps of
`torch.optim.AdamW(lr=1e-2, amsgrad=True)` with recorded gradients (the
second has none at step 2, so its step count lags). After step 3 the
optimizer's `state_dict()` is saved with `torch.save` to
`tests/data/torch_adamw_state.pt`; the parameters at the start, after
step 3 and after step 6 and the gradients go to
`tests/data/torch_adamw_state.json`. With `--check FILE` the script instead
loads an optimizer state dict axial wrote (`torch.load(weights_only=True)`)
into `torch.optim.AdamW.load_state_dict`, runs steps 4 to 6 from the
parameters after step 3, and prints the parameters as JSON.

Parameter groups: three parameters (shapes [2, 3], [4], [3]) in two
groups, for `torch.optim.SGD` (momentum with dampening and weight decay in
the first group, Nesterov in the second) and `torch.optim.AdamW` (weight
decay in the first, AMSGrad without decay in the second), the same way: the
state dicts after step 3 to `tests/data/torch_{sgd,adamw}_groups_state.pt`,
the run to `tests/data/torch_optim_groups.json`; `--check-groups KIND FILE`
loads a state dict axial wrote into that optimizer and prints the
parameters after steps 4 to 6.

    bench/.venv/bin/python oracle/torch_optim_state.py
"""

import argparse
import json
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests/data"
SEED = 20_261_206
SHAPES = [[2, 3], [4]]


def values(t):
    return [float(str(v)) for v in t.detach().flatten().numpy()]


def params_from(lists):
    return [
        torch.tensor(v, dtype=torch.float32).reshape(s).requires_grad_()
        for v, s in zip(lists, SHAPES)
    ]


def run(opt, params, grads, steps):
    for step in steps:
        opt.zero_grad()
        for p, g in zip(params, grads[step - 1]):
            p.grad = None if g is None else torch.tensor(g, dtype=torch.float32).reshape(p.shape)
        opt.step()


def make():
    gen = torch.Generator().manual_seed(SEED)
    start = [values(torch.randn(s, generator=gen)) for s in SHAPES]
    grads = [
        [None if (i == 1 and step == 2) else values(torch.randn(s, generator=gen)) for i, s in enumerate(SHAPES)]
        for step in range(1, 7)
    ]
    params = params_from(start)
    opt = torch.optim.AdamW(params, lr=1e-2, amsgrad=True)
    run(opt, params, grads, range(1, 4))
    torch.save(opt.state_dict(), DATA / "torch_adamw_state.pt")
    middle = [values(p) for p in params]
    run(opt, params, grads, range(4, 7))
    record = {"start": start, "grads": grads, "after3": middle, "after6": [values(p) for p in params]}
    (DATA / "torch_adamw_state.json").write_text(json.dumps(record) + "\n")
    print("wrote tests/data/torch_adamw_state.pt and .json")


GROUP_SHAPES = [[2, 3], [4], [3]]
GROUPS = {
    "sgd": (
        torch.optim.SGD,
        [{"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
         {"lr": 0.05, "momentum": 0.8, "nesterov": True}],
    ),
    "adamw": (
        torch.optim.AdamW,
        [{"lr": 1e-2, "weight_decay": 0.1},
         {"lr": 5e-3, "weight_decay": 0.0, "amsgrad": True}],
    ),
}  # fmt: skip


def grouped(kind, params):
    cls, groups = GROUPS[kind]
    return cls([{"params": params[:2], **groups[0]}, {"params": params[2:], **groups[1]}],
               foreach=False)  # fmt: skip


def group_params(lists):
    return [
        torch.tensor(v, dtype=torch.float32).reshape(s).requires_grad_()
        for v, s in zip(lists, GROUP_SHAPES)
    ]


def make_groups():
    gen = torch.Generator().manual_seed(SEED + 1)
    start = [values(torch.randn(s, generator=gen)) for s in GROUP_SHAPES]
    grads = [
        [None if (i == 1 and step == 2) else values(torch.randn(s, generator=gen))
         for i, s in enumerate(GROUP_SHAPES)]
        for step in range(1, 7)
    ]  # fmt: skip
    record = {"start": start, "grads": grads}
    for kind in GROUPS:
        params = group_params(start)
        opt = grouped(kind, params)
        run(opt, params, grads, range(1, 4))
        torch.save(opt.state_dict(), DATA / f"torch_{kind}_groups_state.pt")
        middle = [values(p) for p in params]
        run(opt, params, grads, range(4, 7))
        record[kind] = {"after3": middle, "after6": [values(p) for p in params]}
    (DATA / "torch_optim_groups.json").write_text(json.dumps(record) + "\n")
    print("wrote tests/data/torch_{sgd,adamw}_groups_state.pt and torch_optim_groups.json")


def check_groups(kind, path):
    record = json.loads((DATA / "torch_optim_groups.json").read_text())
    params = group_params(record[kind]["after3"])
    opt = grouped(kind, params)
    opt.load_state_dict(torch.load(path, weights_only=True))
    run(opt, params, record["grads"], range(4, 7))
    print(json.dumps([values(p) for p in params]))


def check(path):
    record = json.loads((DATA / "torch_adamw_state.json").read_text())
    params = params_from(record["after3"])
    opt = torch.optim.AdamW(params)
    opt.load_state_dict(torch.load(path, weights_only=True))
    run(opt, params, record["grads"], range(4, 7))
    print(json.dumps([values(p) for p in params]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--check")
    parser.add_argument("--check-groups", nargs=2)
    args = parser.parse_args()
    if args.check:
        check(args.check)
    elif args.check_groups:
        check_groups(*args.check_groups)
    else:
        make()
        make_groups()
