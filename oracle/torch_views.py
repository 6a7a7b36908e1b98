"""PyTorch's answers for random sequences of view ops, written for axial to replay.

Generates random op sequences on small strided tensors (every view op,
reshape/contiguous/flatten/unflatten/as_strided, rank 0, sizes 0 and 1,
negative dims, invalid arguments) with elementwise, reduction and in-place
ops on the views they make, runs them in PyTorch, and writes what PyTorch
gives (sizes, strides, offset, contiguity, storage size, values, storage
sharing, the error and its message) to a JSON file.
`crates/axial-core/tests/torch_views.rs` replays the file against axial_core.

    bash bench/setup.sh                          # once: bench/.venv with torch
    bench/.venv/bin/python oracle/torch_views.py # rewrites the JSON file

The output depends only on the seed and the PyTorch version: rerunning the
script gives the same file.

Where axial deliberately differs from PyTorch, the step carries `"axial"`: the
outcome axial gives instead (an error message, or a result), and `"rule"`: the
name of the rule in `DIVERGENCES` below. The replay compares against
`"axial"` where it is present.
"""

import argparse
import json
import math
import random
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/axial-core/tests/data/torch_views.json"

SEED = 20_251_010
SEQUENCES = 2400

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "int16": torch.int16,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "bool": torch.bool,
}
DTYPE_WEIGHTS = {
    "float32": 30,
    "float64": 8,
    "float16": 4,
    "bfloat16": 4,
    "int64": 14,
    "int32": 8,
    "int16": 3,
    "int8": 3,
    "uint8": 4,
    "bool": 6,
}
FLOATS = {"float32", "float64", "float16", "bfloat16"}
HALVES = {"float16", "bfloat16"}

# Where axial deliberately gives another answer than PyTorch. Each generated
# step that meets one carries the rule's name and axial's outcome.
DIVERGENCES = {
    "expand-negative-size": (
        "expand to a negative size in a new leading dim, or in place of a dim "
        "of size 1: PyTorch makes a tensor of negative size; axial refuses, "
        "with PyTorch's message for creating a tensor of negative size."
    ),
    "expand-0dim-minus-one": (
        "expand of a 0-dim tensor with -1 among the sizes: PyTorch skips the "
        "size check for 0-dim tensors and fails later with 'numel: integer "
        "multiplication overflow'; axial gives the error PyTorch gives for a "
        "-1 in any new leading dim."
    ),
}

# Steps not generated, because PyTorch's answer is not defined or axial's API
# cannot express the call (documented in oracle/README.md):
# - writes (add_, fill_) through views whose elements overlap without a
#   stride of 0 (unfold, as_strided windows): PyTorch's result depends on its
#   kernel's order and is unspecified;
# - negative lengths, sizes, steps and offsets where axial takes a `usize`
#   (narrow's length, unfold's size and step, as_strided's sizes and offset);
# - prod of float16/bfloat16: PyTorch rounds to the half type after every
#   multiply, axial accumulates in f32 and rounds once (DESIGN: f16/bf16
#   computed in f32);
# - values whose float sums or products would round (the values are small
#   integers, so every sum and product is exact and order does not matter),
#   except the prod-order sequences, whose axes are short enough that each
#   axis is multiplied in index order on both sides.


def itemsize(dtype):
    return torch.empty(0, dtype=DTYPES[dtype]).element_size()


# ---------------------------------------------------------------- messages


def message(e):
    """PyTorch's message for an exception, as axial words it."""
    text = str(e)
    lines = text.split("\n")
    first = lines[0]
    if first.endswith("got an unexpected error:") and len(lines) > 1:
        first = lines[1]
    # Context PyTorch prints before some messages, naming its own C++ types.
    for prefix in ("permute(sparse_coo): ",):
        if first.startswith(prefix):
            first = first[len(prefix):]
    if first.startswith("expand(torch.") and "): " in first:
        first = first.split("): ", 1)[1]
    return first


# ---------------------------------------------------------------- values


def encode(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v == int(v) and abs(v) < 2**53:
            return int(v) if not (v == 0 and math.copysign(1, v) < 0) else -0.0
        return v
    return v


def values_of(t):
    flat = t.reshape(-1)
    if t.dtype in (torch.float16, torch.bfloat16):
        flat = flat.to(torch.float64)
    return [encode(v) for v in flat.tolist()]


def storage_values(rng, kind, dtype, n):
    if kind == "arange":
        if dtype == "bool":
            return [i % 3 != 0 for i in range(n)]
        if dtype in ("int8", "uint8"):
            return [i % 100 for i in range(n)]
        return list(range(n))
    if kind == "small":
        if dtype == "bool":
            return [rng.random() < 0.6 for _ in range(n)]
        lo = 0 if dtype == "uint8" else -2
        return [rng.randint(lo, 2) for _ in range(n)]
    # "hazard": factors whose products overflow, underflow or meet a zero.
    picks = [0.0, 1.0, -1.0, 2.0, 1e30, -1e30, 1e-30, 3e19, float("inf"), float("nan")]
    weights = [3, 4, 2, 3, 4, 2, 3, 3, 1, 1]
    if dtype == "float64":
        picks = [0.0, 1.0, -1.0, 2.0, 1e300, -1e300, 1e-300, 3e160, float("inf"), float("nan")]
    return [rng.choices(picks, weights)[0] for _ in range(n)]


# ---------------------------------------------------------------- state


def describe(t, prev):
    """What a result that becomes the current tensor is compared on."""
    out = {
        "shape": list(t.shape),
        "stride": list(t.stride()),
        "offset": t.storage_offset(),
        "contiguous": t.is_contiguous(),
        "nbytes": t.untyped_storage().nbytes(),
        "alias": t.untyped_storage()._cdata == prev.untyped_storage()._cdata,
    }
    if t.numel() <= 512:
        out["values"] = values_of(t)
    return out


def probe_result(t):
    """What a result of an elementwise or reduction op is compared on."""
    out = {
        "shape": list(t.shape),
        "stride": list(t.stride()),
        "dtype": str(t.dtype).removeprefix("torch."),
    }
    if t.numel() <= 512:
        out["values"] = values_of(t)
    return out


# ---------------------------------------------------------------- arguments


def pick_dim(rng, rank, extra=1):
    """A dim, mostly valid (negative half the time), sometimes out of range."""
    n = max(rank, 1)
    if rng.random() < 0.08:
        return rng.choice([n, -n - 1, n + extra, -(n + 2)])
    d = rng.randrange(n)
    return d - n if rng.random() < 0.4 else d


def pick_size_in(rng, n):
    return rng.randint(-n - 2, n + 2)


def factor(rng, n, parts):
    """`parts` sizes multiplying to `n` (n > 0), ones allowed."""
    sizes = [1] * parts
    rest = n
    for i in range(parts - 1):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = rng.choice(divisors)
        sizes[i] = d
        rest //= d
    sizes[-1] = rest
    rng.shuffle(sizes)
    return sizes


def new_shape(rng, numel, rank_hint):
    """A shape of `numel` elements, sometimes with a -1 or a wrong count."""
    parts = rng.randint(0 if numel == 1 else 1, 4)
    if numel == 0:
        shape = [rng.choice([0, 1, 2, 3]) for _ in range(max(parts, 1))]
        if 0 not in shape:
            shape[rng.randrange(len(shape))] = 0
    else:
        shape = factor(rng, numel, parts) if parts else []
    r = rng.random()
    if shape and r < 0.3:
        shape[rng.randrange(len(shape))] = -1
    elif r < 0.36:
        shape = shape + [2] if shape else [2]
    elif r < 0.4 and shape:
        shape[rng.randrange(len(shape))] = rng.choice([-2, -1])
        shape[rng.randrange(len(shape))] = -1
    return shape


def gen_view_op(rng, x):
    rank = x.dim()
    shape = list(x.shape)

    def size_at(d):
        if rank == 0:
            return 1
        return shape[d] if -rank <= d < rank else 3

    op = rng.choices(
        [
            "slice", "select", "narrow", "unsqueeze", "squeeze", "squeeze_dims",
            "transpose", "t", "permute", "movedim", "diagonal", "unfold", "expand",
            "view", "reshape", "contiguous", "flatten", "unflatten", "as_strided",
        ],
        [8, 6, 5, 6, 2, 4, 5, 2, 5, 4, 4, 4, 6, 6, 5, 3, 4, 5, 5],
    )[0]
    if op == "slice":
        d = pick_dim(rng, rank)
        n = size_at(d)
        start = None if rng.random() < 0.3 else pick_size_in(rng, n)
        end = None if rng.random() < 0.3 else pick_size_in(rng, n)
        step = rng.choices([1, 2, 3, 0, -1], [10, 5, 3, 1, 1])[0]
        return op, [d, start, end, step]
    if op == "select":
        d = pick_dim(rng, rank)
        n = size_at(d)
        return op, [d, rng.randint(-n - 1, n)]
    if op == "narrow":
        d = pick_dim(rng, rank)
        n = size_at(d)
        start = rng.randint(-n - 1, n + 1)
        return op, [d, start, rng.randint(0, n + 1)]
    if op == "unsqueeze":
        return op, [pick_dim(rng, rank + 1)]
    if op == "squeeze" or op == "t" or op == "contiguous":
        return op, []
    if op == "squeeze_dims":
        k = rng.randint(0, min(3, max(rank, 1)))
        return op, [pick_dim(rng, rank) for _ in range(k)]
    if op == "transpose":
        return op, [pick_dim(rng, rank), pick_dim(rng, rank)]
    if op == "permute":
        dims = list(range(rank))
        rng.shuffle(dims)
        dims = [d - rank if rng.random() < 0.3 else d for d in dims]
        r = rng.random()
        if r < 0.05:
            dims = dims + [0]
        elif r < 0.1 and dims:
            dims[rng.randrange(len(dims))] = dims[0]
        elif r < 0.13 and dims:
            dims[rng.randrange(len(dims))] = rank
        return op, [dims]
    if op == "movedim":
        k = rng.randint(0, max(rank, 1))
        src = rng.sample(range(max(rank, 1)), min(k, max(rank, 1)))
        dst = rng.sample(range(max(rank, 1)), len(src))
        src = [d - max(rank, 1) if rng.random() < 0.3 else d for d in src]
        dst = [d - max(rank, 1) if rng.random() < 0.3 else d for d in dst]
        r = rng.random()
        if r < 0.05 and src:
            src[-1] = src[0]
        elif r < 0.08:
            dst = dst + [0]
        elif r < 0.11 and dst:
            dst[0] = max(rank, 1) + 1
        if rng.random() < 0.2 and len(src) == 1 and len(dst) == 1:
            return op, [src[0], dst[0]]
        return op, [src, dst]
    if op == "diagonal":
        offset = rng.randint(-4, 4)
        if rng.random() < 0.3:
            return op, [offset]
        return op, [offset, pick_dim(rng, rank), pick_dim(rng, rank)]
    if op == "unfold":
        d = pick_dim(rng, rank)
        n = size_at(d)
        size = rng.randint(0, n + 1)
        step = rng.choices([1, 2, 3, 0], [6, 3, 2, 1])[0]
        return op, [d, size, step]
    if op == "expand":
        sizes = []
        for n in shape:
            r = rng.random()
            if r < 0.3:
                sizes.append(-1)
            elif n == 1 and r < 0.8:
                sizes.append(rng.choice([0, 1, 2, 3]))
            elif r < 0.93:
                sizes.append(n)
            else:
                sizes.append(n + 1)
        lead = rng.choices([0, 1, 2], [5, 4, 2])[0]
        new = [rng.choice([1, 1, 2, 3, 0]) if rng.random() > 0.05 else -1 for _ in range(lead)]
        sizes = new + sizes
        if rng.random() < 0.04 and sizes:
            sizes = sizes[1:] if rank > 0 and lead == 0 else sizes
        if rng.random() < 0.03 and sizes:
            sizes[rng.randrange(len(sizes))] = -3
        return op, [sizes]
    if op in ("view", "reshape"):
        return op, [new_shape(rng, x.numel(), rank)]
    if op == "flatten":
        if rng.random() < 0.15:
            return op, []
        return op, [pick_dim(rng, rank), pick_dim(rng, rank)]
    if op == "unflatten":
        d = pick_dim(rng, rank)
        n = size_at(d)
        if n == 0:
            sizes = [rng.choice([0, 1, 2]) for _ in range(rng.randint(1, 3))]
            if 0 not in sizes:
                sizes[0] = 0
        else:
            sizes = factor(rng, n, rng.randint(1, 3))
        r = rng.random()
        if r < 0.35:
            sizes[rng.randrange(len(sizes))] = -1
        elif r < 0.42:
            sizes = sizes + [2]
        elif r < 0.45:
            sizes = []
        elif r < 0.48:
            sizes = [-1, -1]
        return op, [d, sizes]
    # as_strided
    storage_len = x.untyped_storage().nbytes() // x.element_size()
    r = rng.randint(0, 3)
    size = [rng.choice([0, 1, 1, 2, 2, 3, 4]) for _ in range(r)]
    stride = [rng.choice([0, 1, 1, 2, 3, 5]) for _ in range(r)]
    if rng.random() < 0.05 and stride:
        stride[0] = -1
    if rng.random() < 0.04:
        stride = stride + [1]
    offset = None if rng.random() < 0.4 else rng.randint(0, storage_len + 1)
    return op, [size, stride, offset]


def apply_view_op(x, op, args):
    if op == "slice":
        d, start, end, step = args
        return torch.ops.aten.slice.Tensor(x, d, start, end, step)
    if op == "select":
        return x.select(*args)
    if op == "narrow":
        return x.narrow(*args)
    if op == "unsqueeze":
        return x.unsqueeze(*args)
    if op == "squeeze":
        return x.squeeze()
    if op == "squeeze_dims":
        return x.squeeze(tuple(args))
    if op == "transpose":
        return x.transpose(*args)
    if op == "t":
        return x.t()
    if op == "permute":
        return x.permute(args[0])
    if op == "movedim":
        return x.movedim(args[0], args[1])
    if op == "diagonal":
        if len(args) == 1:
            return x.diagonal(args[0])
        return x.diagonal(*args)
    if op == "unfold":
        return x.unfold(*args)
    if op == "expand":
        return x.expand(args[0])
    if op == "view":
        return x.view(args[0])
    if op == "reshape":
        return x.reshape(args[0])
    if op == "contiguous":
        return x.contiguous()
    if op == "flatten":
        return x.flatten(*args)
    if op == "unflatten":
        return x.unflatten(args[0], args[1])
    if op == "as_strided":
        size, stride, offset = args
        return x.as_strided(size, stride, offset)
    raise ValueError(op)


# ---------------------------------------------------------------- probes


REDUCTIONS = ["sum", "mean", "amax", "amin", "any", "all", "prod"]


def gen_probe(rng, x, kind, dtype):
    rank = x.dim()
    if kind == "hazard":
        op = "prod"
    else:
        choices = ["neg", "add", "mul_scalar", "add_row", "clone", "to",
                   "print" if x.numel() <= 200 else "clone",
                   "sum", "mean", "amax", "amin", "any", "all", "argmax", "argmin", "max_dim"]
        weights = [3, 3, 3, 2, 2, 2, 3, 5, 3, 3, 3, 2, 2, 3, 2, 2]
        if kind == "small" and dtype not in HALVES:
            choices.append("prod")
            weights.append(6)
        op = rng.choices(choices, weights)[0]
    if op in ("neg", "add", "clone", "print"):
        return op, []
    if op == "mul_scalar":
        return op, [rng.choice([-2, 0, 1, 3])]
    if op == "add_row":
        return op, []
    if op == "to":
        return op, [rng.choice(["float32", "float64", "int64", "int32", "bool", "float16"])]
    if op in REDUCTIONS:
        if rng.random() < 0.2:
            dims = []
        else:
            k = rng.randint(1, max(rank, 1))
            dims = rng.sample(range(max(rank, 1)), min(k, max(rank, 1)))
            dims = [d - max(rank, 1) if rng.random() < 0.3 else d for d in dims]
            if rng.random() < 0.04:
                dims.append(dims[0])
            if rng.random() < 0.04:
                dims.append(max(rank, 1))
        return op, [dims, rng.random() < 0.4]
    if op in ("argmax", "argmin"):
        dim = None if rng.random() < 0.25 else pick_dim(rng, rank)
        return op, [dim, rng.random() < 0.4]
    # max_dim
    return op, [pick_dim(rng, rank), rng.random() < 0.4, rng.choice(["max", "min"])]


def nested_prod(x, dims, keepdim):
    """einops' prod over several axes: one axis at a time, the last first."""
    rank = x.dim()
    if not dims:
        wrapped = list(range(rank))
    else:
        wrapped = []
        n = max(rank, 1)
        for d in dims:
            if d < -n or d >= n:
                return x.prod(d)  # PyTorch's out-of-range error
            w = d + n if d < 0 else d
            if w in wrapped:
                raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
            wrapped.append(w)
        if rank == 0:
            return x.prod(dims[0], keepdim=keepdim)
    if not wrapped:
        return x.prod() if not keepdim else x.prod().reshape([1] * rank)
    out = x
    for d in sorted(wrapped, reverse=True):
        out = out.prod(d, keepdim=True)
    if not keepdim:
        for d in sorted(wrapped, reverse=True):
            out = out.squeeze(d)
    return out


def apply_probe(x, op, args):
    if op == "neg":
        return x.neg()
    if op == "add":
        return x + x
    if op == "mul_scalar":
        return x * args[0]
    if op == "add_row":
        row = x.select(0, 0) if x.dim() > 0 else x
        return x + row
    if op == "clone":
        return x.clone()
    if op == "to":
        return x.to(DTYPES[args[0]], copy=True)
    if op == "prod":
        return nested_prod(x, args[0], args[1])
    if op in REDUCTIONS:
        dims, keepdim = args
        f = getattr(torch, op)
        if op in ("any", "all") and not dims:
            return f(x) if not keepdim else f(x, dim=tuple(range(x.dim())), keepdim=True)
        if not dims:
            return f(x) if not keepdim else f(x, dim=(), keepdim=True)
        return f(x, dim=tuple(dims), keepdim=keepdim)
    if op in ("argmax", "argmin"):
        dim, keepdim = args
        return getattr(torch, op)(x, dim=dim, keepdim=keepdim)
    if op == "max_dim":
        dim, keepdim, which = args
        values, indices = getattr(torch, which)(x, dim, keepdim)
        return values, indices
    raise ValueError(op)


# ---------------------------------------------------------------- in place


def overlaps_without_broadcast(t):
    """True when two elements may share memory with no stride-0 dim to say so
    (PyTorch's TooHard: its writes there are unspecified)."""
    dims = sorted((s, n) for n, s in zip(t.shape, t.stride()) if n > 1)
    if any(s == 0 for s, _ in dims):
        return False
    reach = 0
    for s, n in dims:
        if s <= reach:
            return True
        reach += (n - 1) * s
    return False


def gen_inplace(rng, x, kind):
    if overlaps_without_broadcast(x):
        return None
    if kind == "arange":
        op = rng.choice(["add_", "fill_", "zero_"])
    else:
        op = rng.choice(["fill_", "zero_"])
    if op == "add_":
        return op, [rng.choice([1, -3, 2])]
    if op == "fill_":
        lo = 0 if x.dtype == torch.uint8 else -2
        return op, [rng.randint(lo, 2)]
    return op, []


def apply_inplace(x, op, args):
    if op == "add_":
        x.add_(args[0])
    elif op == "fill_":
        x.fill_(args[0])
    else:
        x.zero_()


# ---------------------------------------------------------------- sequences


def gen_base(rng):
    dtype = rng.choices(list(DTYPE_WEIGHTS), list(DTYPE_WEIGHTS.values()))[0]
    r = rng.random()
    if r < 0.08 and dtype in ("float32", "float64"):
        kind = "hazard"
    elif r < 0.45:
        kind = "small"
    else:
        kind = "arange"
    rank = rng.choices([0, 1, 2, 3, 4], [1, 3, 4, 4, 2])[0]
    if kind == "hazard":
        shape = [rng.choice([1, 2, 3, 4, 5]) for _ in range(rank)]
    else:
        shape = [rng.choices([0, 1, 2, 3, 4, 5], [1, 3, 4, 4, 3, 2])[0] for _ in range(rank)]
    while math.prod(shape) > 120:
        shape[shape.index(max(shape))] -= 1
    numel = math.prod(shape)
    offset = rng.choice([0, 0, 0, 1, 2, 5])
    storage = numel + offset + rng.choice([0, 0, 1, 3])
    return {
        "dtype": dtype,
        "kind": kind,
        "shape": shape,
        "offset": offset,
        "storage": storage,
    }


def torch_base(base, rng):
    dtype = DTYPES[base["dtype"]]
    vals = storage_values(rng, base["kind"], base["dtype"], base["storage"])
    flat = torch.tensor(vals, dtype=torch.float64 if base["kind"] == "hazard" else None)
    flat = flat.to(dtype) if flat.numel() else torch.empty(0, dtype=dtype)
    strides = []
    acc = 1
    for n in reversed(base["shape"]):
        strides.insert(0, acc)
        acc *= max(n, 1)
    x = flat.as_strided(base["shape"], strides, base["offset"])
    return flat, x, vals


def run_sequence(rng):
    base = gen_base(rng)
    flat, x, vals = torch_base(base, rng)
    seq = dict(base)
    seq["values"] = [encode(float(v) if isinstance(v, float) else v) for v in vals]
    steps = []
    for _ in range(rng.randint(1, 7)):
        r = rng.random()
        if r < 0.62 or base["kind"] == "hazard" and r < 0.75:
            op, args = gen_view_op(rng, x)
            step = {"op": op, "args": args}
            rule = divergence(x, op, args)
            try:
                y = apply_view_op(x, op, args)
                step["ok"] = describe(y, x)
                if not (rule and "err" in rule[1]):
                    x = y  # where axial refuses, both go on from the same tensor
            except Exception as e:  # noqa: BLE001 - every PyTorch error is recorded
                step["err"] = message(e)
            if rule:
                step["rule"], step["axial"] = rule
        elif r < 0.92:
            op, args = gen_probe(rng, x, base["kind"], base["dtype"])
            step = {"op": op, "args": args}
            try:
                if op == "print":
                    step["ok"] = {"repr": repr(x)}
                else:
                    y = apply_probe(x, op, args)
                    if isinstance(y, tuple):
                        step["ok"] = {"values": probe_result(y[0]), "indices": probe_result(y[1])}
                    else:
                        step["ok"] = probe_result(y)
            except Exception as e:  # noqa: BLE001
                step["err"] = message(e)
        else:
            gen = gen_inplace(rng, x, base["kind"])
            if gen is None:
                continue
            op, args = gen
            step = {"op": op, "args": args}
            try:
                apply_inplace(x, op, args)
                whole = torch.empty(0, dtype=x.dtype).set_(x.untyped_storage())
                step["ok"] = {"values": values_of(x) if x.numel() <= 512 else None,
                              "storage": values_of(whole) if whole.numel() <= 512 else None}
            except Exception as e:  # noqa: BLE001
                step["err"] = message(e)
        steps.append(step)
    seq["steps"] = steps
    return seq


def divergence(x, op, args):
    """The deliberate divergence `op(args)` on `x` meets, as (rule, axial's outcome)."""
    if op != "expand":
        return None
    sizes = args[0]
    if len(sizes) < x.dim():
        return None
    lead = len(sizes) - x.dim()
    # inferExpandGeometry's walk from the last dim: the first error it meets
    # comes first; a negative size it lets through is axial's error.
    for i in reversed(range(len(sizes))):
        target = sizes[i]
        size = x.shape[i - lead] if i >= lead else 1
        if target == -1:
            if i >= lead:
                continue
            if x.dim() == 0:
                return "expand-0dim-minus-one", {
                    "err": "The expanded size of the tensor (-1) isn't allowed in a "
                    f"leading, non-existing dimension {i}"
                }
            return None  # PyTorch's own error
        if target != size and size != 1:
            return None  # PyTorch's own error
        if target < 0:
            return "expand-negative-size", {
                "err": f"Trying to create tensor with negative dimension {target}: {sizes}"
            }
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sequences", type=int, default=SEQUENCES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    torch.manual_seed(0)
    rng = random.Random(args.seed)
    sequences = [run_sequence(rng) for _ in range(args.sequences)]
    doc = {
        "generator": "oracle/torch_views.py",
        "torch": torch.__version__.split("+")[0],
        "seed": args.seed,
        "divergences": DIVERGENCES,
        "sequences": sequences,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, separators=(",", ":"))
    args.out.write_text(text + "\n")
    steps = sum(len(s["steps"]) for s in sequences)
    errors = sum(1 for s in sequences for st in s["steps"] if "err" in st)
    try:
        shown = args.out.resolve().relative_to(ROOT)
    except ValueError:
        shown = args.out
    print(f"{shown}: {len(sequences)} sequences, {steps} steps "
          f"({errors} errors), {len(text) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
