"""A training step of a MiniLM-sized BERT encoder block in PyTorch eager,
for the `train_step/8x128` case beside `benches/train.rs`: the block as
transformers' `BertLayer` names its parameters (`attention.self.query`,
..., `output.LayerNorm`), eager attention without a mask or dropout, the
mean of the output's squares as the loss, backward, `torch.optim.AdamW`
(defaults, `foreach=False`: PyTorch's loop per parameter). axial's side is
`examples/encoder_block/block.rs`; `oracle/torch_state_dict.py` uses this
module for the checkpoint round trip.

    bench/.venv/bin/python bench/torch_train.py --memory   # peak memory of a step

`--memory` measures a step's peak two ways: the process's resident set
(the kernel's high-water mark `VmHWM`, reset through
`/proc/self/clear_refs`, after the step, less the resident set before it;
run with `MALLOC_MMAP_THRESHOLD_=65536` so that glibc hands freed buffers
back instead of keeping them resident), and torch.profiler's memory
timeline of a step (`profile_memory=True`; its peak of the bytes live, less
those live at its start: the parameters, the input, AdamW's state).
`examples/encoder_block` measures axial with the same resident-set method
and with a counting allocator.
"""

import argparse
import json
import math
import re
import tempfile
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.profiler import ProfilerActivity, profile

MODEL, HEADS, MLP, EPS = 384, 12, 1536, 1e-12
BATCH, SEQ = 8, 128


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.query = nn.Linear(MODEL, MODEL)
        self.key = nn.Linear(MODEL, MODEL)
        self.value = nn.Linear(MODEL, MODEL)


class Output(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.dense = nn.Linear(inner, MODEL)
        self.LayerNorm = nn.LayerNorm(MODEL, eps=EPS)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.self = SelfAttention()
        self.output = Output(MODEL)


class Intermediate(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = nn.Linear(MODEL, MLP)


class Block(nn.Module):
    """transformers' BertLayer's parameters, its eager forward without a mask."""

    def __init__(self):
        super().__init__()
        self.attention = Attention()
        self.intermediate = Intermediate()
        self.output = Output(MLP)

    def forward(self, x):
        b, s, _ = x.shape
        a = self.attention.self
        heads = lambda t: t.view(b, s, HEADS, MODEL // HEADS).permute(0, 2, 1, 3)
        q, k, v = heads(a.query(x)), heads(a.key(x)), heads(a.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(MODEL // HEADS)
        ctx = (scores.softmax(-1) @ v).permute(0, 2, 1, 3).reshape(b, s, MODEL)
        out = self.attention.output
        h = out.LayerNorm(out.dense(ctx) + x)
        up = F.gelu(self.intermediate.dense(h))
        return self.output.LayerNorm(self.output.dense(up) + h)


def setup(seed=1):
    """The block, its input and AdamW, made outside inference mode."""
    with torch.inference_mode(False):
        torch.manual_seed(seed)
        block = Block()
        x = torch.randn(BATCH, SEQ, MODEL)
        opt = torch.optim.AdamW(block.parameters(), foreach=False)
    return block, x, opt


def step(block, x, opt):
    """One step: forward, the loss, backward, AdamW; returns the loss."""
    with torch.inference_mode(False), torch.enable_grad():
        loss = block(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.detach()


def cases():
    """The training-step case for bench/torch_cases.py."""
    block, x, opt = setup()
    return [("train_step/8x128", lambda: step(block, x, opt))]


def status_kib(field):
    text = open("/proc/self/status").read()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1))


def memory(threads):
    torch.set_num_threads(threads)
    block, x, opt = setup()
    for i in range(3):
        before = status_kib("VmRSS")
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM to the current resident set
        loss = step(block, x, opt)
        peak = status_kib("VmHWM")
        print(f"step {i}: loss {loss.item():.6f}, peak {(peak - before) / 1024:.1f} MiB "
              f"above the {before / 1024:.1f} MiB resident before it")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # export_memory_timeline's
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True,
                     record_shapes=True, with_stack=True) as prof:  # fmt: skip
            step(block, x, opt)
        prof.export_memory_timeline(f"{tmp}/timeline.json", device="cpu")
        _, sizes = json.loads(Path(f"{tmp}/timeline.json").read_text())
    live = [sum(s) for s in sizes]
    print(f"profiler: peak {(max(live) - live[0]) / 2**20:.1f} MiB above the "
          f"{live[0] / 2**20:.1f} MiB live at the step's start")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory", action="store_true", help="peak memory of a step")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.memory:
        memory(args.threads)
