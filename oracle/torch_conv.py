"""PyTorch's answers for random convolution, pooling and normalisation calls.

Generates random configurations of `torch.nn.functional` window ops
(conv1d/2d/3d with strides above the kernel, dilation, groups and depthwise,
numeric, 'same' and 'valid' padding, zeros/reflect/replicate/circular padding
modes as `nn.Conv` applies them; conv_transpose1d/2d/3d; max pooling with
indices, average pooling, adaptive pooling, `ceil_mode`; unfold/fold; pad;
batch/group/instance norm; the CNN activations), on batches of 0, 1 and more,
unbatched inputs, contiguous, channels-last, strided and transposed inputs,
in float32, float64 and bfloat16, plus calls PyTorch refuses with its
message. Writes the configurations and PyTorch's answers for
`crates/axial-core/tests/torch_conv.rs` to replay:

- `crates/axial-core/tests/data/torch_conv.json`: one entry per case (the
  op, its arguments, the input layout, the output's shape and where its
  values are, or the error message);
- `crates/axial-core/tests/data/torch_conv.bin`: the outputs' values,
  little-endian, each in its dtype (bfloat16 results widened to float32,
  indices as int64).

Inputs are not stored: both sides draw them from `values(seed, n)` below
(splitmix64, 24-bit values in [-1, 1), exact in float32), so the files hold
only the answers.

    bench/.venv/bin/python oracle/torch_conv.py   # rewrites both files

The output depends only on the seed and the PyTorch version.
"""

import json
import random
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "crates/axial-core/tests/data"
SEED = 20_261_206

MASK = (1 << 64) - 1


def values(seed, n):
    """`n` values in [-1, 1), multiples of 2^-23: splitmix64 of `seed`,
    as `tests/torch_conv.rs` draws them."""
    golden = np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = np.uint64(seed & MASK) + golden * np.arange(1, n + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(40)).astype(np.float64) / float(1 << 23) - 1.0


DTYPES = {"float32": torch.float32, "float64": torch.float64, "bfloat16": torch.bfloat16}


def tensor(seed, shape, dtype, layout="contiguous", positive=False):
    """The input `seed` of `shape` in `layout`, as the replay builds it:
    `contiguous`; `channels_last` (dim 1 innermost in memory); `strided`
    (every other element of a last dim twice as long); `transposed` (the
    last two dims swapped in memory)."""
    shape = list(shape)
    if layout == "channels_last":
        mem = [shape[0]] + shape[2:] + [shape[1]]
    elif layout == "strided":
        mem = shape[:-1] + [2 * shape[-1]]
    elif layout == "transposed":
        mem = shape[:-2] + [shape[-1], shape[-2]]
    else:
        mem = shape
    n = int(np.prod(mem)) if mem else 1
    v = values(seed, n)
    if positive:
        v = np.abs(v) + 0.25
    base = torch.tensor(v, dtype=torch.float64).reshape(mem).to(DTYPES[dtype])
    if layout == "channels_last":
        r = len(shape)
        return base.permute([0, r - 1] + list(range(1, r - 1)))
    if layout == "strided":
        return base[..., ::2]
    if layout == "transposed":
        return base.transpose(-1, -2)
    return base


# PyTorch failures that are not its checks: a transposed convolution whose
# output would have a negative size fails inside oneDNN (grouped) or in
# `numel` (channels-last) before PyTorch's own check. axial gives that
# check's message, which PyTorch gives for the same call ungrouped and
# contiguous; the case records it under "axial" with the rule's name.
KERNEL_FAILURES = ("could not construct a memory descriptor", "numel: integer multiplication overflow")


class Writer:
    def __init__(self):
        self.cases = []
        self.blob = bytearray()

    def array(self, t):
        """Appends `t`'s values, returns (byte offset, count, kind)."""
        t = t.detach().contiguous()
        if t.dtype == torch.int64:
            a, kind = t.numpy().astype("<i8"), "i64"
        elif t.dtype == torch.float64:
            a, kind = t.numpy().astype("<f8"), "f64"
        else:
            a, kind = t.to(torch.float32).numpy().astype("<f4"), "f32"
        while len(self.blob) % 8:
            self.blob.append(0)
        at = len(self.blob)
        self.blob += a.tobytes()
        return {"at": at, "len": int(a.size), "kind": kind, "shape": list(t.shape)}

    def case(self, spec, run, checked=None):
        spec = dict(spec)
        try:
            outs = run()
        except Exception as e:  # PyTorch refused: its message
            spec["error"] = str(e).split("\n")[0]
            if checked is not None and spec["error"].startswith(KERNEL_FAILURES):
                try:
                    checked()
                except Exception as e2:
                    spec["rule"] = "transposed-negative-size"
                    spec["axial"] = str(e2).split("\n")[0]
            self.cases.append(spec)
            return
        if not isinstance(outs, tuple):
            outs = (outs,)
        spec["out"] = [self.array(o) for o in outs]
        self.cases.append(spec)


def pick(rng, weighted):
    items, weights = zip(*weighted.items())
    return rng.choices(items, weights)[0]


def conv_case(rng, w, i, nd, transposed=False):
    dtype = pick(rng, {"float32": 6, "float64": 2, "bfloat16": 1})
    layout = pick(rng, {"contiguous": 5, "channels_last": 3, "strided": 2, "transposed": 1 if nd > 1 else 0, "axes": 2, "unbatched": 1})
    n = pick(rng, {0: 1, 1: 5, 2: 3})
    groups = pick(rng, {1: 5, 2: 2, 3: 1, "depthwise": 2})
    cg = rng.randint(1, 3)
    if groups == "depthwise":
        groups = rng.randint(2, 6)
        cin = groups
        cout = groups * rng.choice([1, 1, 2])
    else:
        cin = cg * groups
        cout = groups * rng.randint(1, 3)
    kernel = [rng.choice([1, 1, 2, 3, 3, 4, 5]) for _ in range(nd)]
    stride = [rng.choice([1, 1, 1, 2, 3, 5]) for _ in range(nd)]
    dilation = [rng.choice([1, 1, 1, 2, 3]) for _ in range(nd)]
    max_size = {1: 16, 2: 9, 3: 5}[nd]
    size = [rng.randint(1, max_size) for _ in range(nd)]
    bias = rng.random() < 0.6
    spec = {"op": "conv_transpose" if transposed else "conv", "nd": nd, "dtype": dtype, "layout": layout,
            "groups": groups, "stride": stride, "dilation": dilation, "bias": bias, "seed": SEED + 1000 * i}
    if layout == "unbatched":
        xshape = [cin] + size
    else:
        xshape = [n, cin] + size
    if transposed:
        wshape = [cin, cout // groups] + kernel
        padding = [rng.randint(0, (dilation[d] * (kernel[d] - 1)) // 2 + 1) for d in range(nd)]
        output_padding = [rng.randint(0, max(stride[d], dilation[d]) - 1) if rng.random() < 0.4 else 0 for d in range(nd)]
        spec.update(padding=padding, output_padding=output_padding, mode="zeros")
    else:
        wshape = [cout, cin // groups] + kernel
        kind = pick(rng, {"numbers": 6, "same": 2, "valid": 1})
        if kind == "same" and any(s != 1 for s in stride):
            stride = [1] * nd
            spec["stride"] = stride
        if kind == "numbers":
            padding = [rng.randint(0, 3) for _ in range(nd)]
        else:
            padding = kind
        mode = pick(rng, {"zeros": 6, "reflect": 1, "replicate": 1, "circular": 1})
        spec.update(padding=padding, mode=mode)
    # Sizes that make the kernel fit most of the time, but not always.
    if not transposed and rng.random() < 0.9:
        for d in range(nd):
            pad = spec["padding"][d] if isinstance(spec["padding"], list) else 0
            need = dilation[d] * (kernel[d] - 1) + 1 - 2 * pad
            if xshape[-nd + d] < need:
                xshape[-nd + d] = min(need + rng.randint(0, 2), max(need, max_size + 4))
    spec.update(x=xshape, w=wshape)
    seed = spec["seed"]

    def run():
        x_layout = {"axes": "channels_last", "unbatched": "contiguous"}.get(layout, layout)
        if layout == "channels_last" and len(xshape) < 3:
            x_layout = "contiguous"
        x = tensor(seed, xshape, dtype, x_layout)
        wt = tensor(seed + 1, wshape, dtype)
        b = tensor(seed + 2, [wshape[1] * groups if transposed else wshape[0]], dtype) if bias else None
        if transposed:
            f = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][nd - 1]
            return f(x, wt, b, stride=stride, padding=spec["padding"], output_padding=spec["output_padding"],
                     groups=groups, dilation=dilation)
        f = [F.conv1d, F.conv2d, F.conv3d][nd - 1]
        mode = spec["mode"]
        if mode != "zeros":
            # nn.Conv's padding_mode: F.pad first, then no padding.
            if spec["padding"] == "valid":
                pads = [0] * (2 * nd)
            elif spec["padding"] == "same":
                pads = []
                for d in reversed(range(nd)):
                    total = dilation[d] * (kernel[d] - 1)
                    pads += [total // 2, total - total // 2]
            else:
                pads = []
                for d in reversed(range(nd)):
                    pads += [spec["padding"][d]] * 2
            xp = x if x.dim() == nd + 2 else x.unsqueeze(0)
            xp = F.pad(xp, pads, mode=mode)
            if x.dim() != nd + 2:
                xp = xp.squeeze(0)
            return f(xp, wt, b, stride=stride, padding=0, dilation=dilation, groups=groups)
        return f(x, wt, b, stride=stride, padding=spec["padding"], dilation=dilation, groups=groups)

    def checked():
        # PyTorch's own size check (`check_shape_forward`), which its
        # convolution reaches first when it does not fail earlier.
        inp = xshape[-nd:]
        out = [(inp[d] - 1) * stride[d] - 2 * spec["padding"][d] + dilation[d] * (kernel[d] - 1)
               + spec["output_padding"][d] + 1 for d in range(nd)]
        if nd == 1:  # computed as a 2-d convolution
            inp, out = [1] + inp, [1] + out
        if min(out) < 1:
            raise RuntimeError(
                f"Given input size per channel: ({' x '.join(map(str, inp))}). "
                f"Calculated output size per channel: ({' x '.join(map(str, out))}). Output size is too small")

    w.case(spec, run, checked if transposed else None)


def pool_case(rng, w, i, nd):
    kind = pick(rng, {"max": 4, "avg": 3, "adaptive_avg": 1, "adaptive_max": 1})
    dtype = pick(rng, {"float32": 6, "float64": 2, "bfloat16": 1})
    if kind == "avg" and nd == 3 and dtype == "bfloat16":
        dtype = "float32"  # PyTorch has no bfloat16 avg_pool3d on the CPU
    layout = pick(rng, {"contiguous": 5, "channels_last": 3, "strided": 2, "axes": 2, "unbatched": 1})
    if kind == "avg" and nd == 3 and layout == "axes":
        layout = "channels_last"  # avg_pool3d's own check of the unpadded input is positional
    n = pick(rng, {0: 1, 1: 5, 2: 3})
    c = rng.randint(1, 5)
    max_size = {1: 20, 2: 10, 3: 6}[nd]
    size = [rng.randint(1, max_size) for _ in range(nd)]
    xshape = [c] + size if layout == "unbatched" else [n, c] + size
    seed = SEED + 1000 * i
    spec = {"op": kind, "nd": nd, "dtype": dtype, "layout": layout, "x": xshape, "seed": seed}
    if kind.startswith("adaptive"):
        out = [rng.randint(1, max(1, s + 2)) if rng.random() < 0.8 else 1 for s in size]
        spec["output_size"] = out
    else:
        kernel = [rng.randint(1, 4) for _ in range(nd)]
        stride = [rng.choice([1, 1, 2, 2, 3, 5]) for _ in range(nd)]
        dilation = [rng.choice([1, 1, 2]) for _ in range(nd)] if kind == "max" else [1] * nd
        padding = [rng.randint(0, (dilation[d] * (kernel[d] - 1) + 1) // 2) for d in range(nd)]
        if rng.random() < 0.05:
            padding[0] += 1  # more than PyTorch allows
        ceil = rng.random() < 0.5
        spec.update(kernel=kernel, stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil)
        if kind == "avg":
            spec["count_include_pad"] = rng.random() < 0.5
            spec["divisor_override"] = rng.choice([None, None, None, 3]) if nd > 1 else None
        for d in range(nd):
            need = dilation[d] * (kernel[d] - 1) + 1 - 2 * padding[d]
            if xshape[-nd + d] < need and rng.random() < 0.9:
                xshape[-nd + d] = need + rng.randint(0, 2)
    spec["x"] = xshape

    def run():
        x_layout = {"axes": "channels_last", "unbatched": "contiguous"}.get(layout, layout)
        x = tensor(seed, xshape, dtype, x_layout)
        if kind == "adaptive_avg":
            return [F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d][nd - 1](x, spec["output_size"])
        if kind == "adaptive_max":
            f = [F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d][nd - 1]
            return f(x, spec["output_size"], return_indices=True)
        if kind == "max":
            f = [F.max_pool1d, F.max_pool2d, F.max_pool3d][nd - 1]
            return f(x, spec["kernel"], spec["stride"], spec["padding"], spec["dilation"],
                     ceil_mode=spec["ceil_mode"], return_indices=True)
        f = [F.avg_pool1d, F.avg_pool2d, F.avg_pool3d][nd - 1]
        if nd == 1:
            return f(x, spec["kernel"], spec["stride"], spec["padding"], spec["ceil_mode"], spec["count_include_pad"])
        return f(x, spec["kernel"], spec["stride"], spec["padding"], spec["ceil_mode"], spec["count_include_pad"],
                 spec["divisor_override"])

    w.case(spec, run)


def norm_case(rng, w, i):
    kind = pick(rng, {"batch_norm": 3, "batch_norm_train": 2, "group_norm": 2, "instance_norm": 2})
    dtype = pick(rng, {"float32": 6, "float64": 2, "bfloat16": 1})
    nd = rng.randint(0, 3)
    layout = pick(rng, {"contiguous": 3, "channels_last": 2 if nd > 0 else 0, "strided": 1})
    n = rng.randint(1, 3)
    groups = rng.randint(1, 3)
    c = groups * rng.randint(1, 3)
    xshape = [n, c] + [rng.randint(1, 5) for _ in range(nd)]
    affine = rng.random() < 0.7
    seed = SEED + 1000 * i
    eps = rng.choice([1e-5, 1e-3, 0.1])
    spec = {"op": kind, "dtype": dtype, "layout": layout, "x": xshape, "affine": affine, "eps": eps,
            "groups": groups, "momentum": 0.1, "seed": seed}

    def run():
        x = tensor(seed, xshape, dtype, layout)
        wt = tensor(seed + 1, [c], dtype) if affine else None
        b = tensor(seed + 2, [c], dtype) if affine else None
        if kind == "batch_norm":
            rm = tensor(seed + 3, [c], dtype)
            rv = tensor(seed + 4, [c], dtype, positive=True)
            return F.batch_norm(x, rm, rv, wt, b, False, 0.1, eps)
        if kind == "batch_norm_train":
            rm = tensor(seed + 3, [c], dtype)
            rv = tensor(seed + 4, [c], dtype, positive=True)
            y = F.batch_norm(x, rm, rv, wt, b, True, 0.1, eps)
            return y, rm, rv
        if kind == "group_norm":
            return F.group_norm(x, groups, wt, b, eps)
        return F.instance_norm(x, None, None, wt, b, True, 0.1, eps)

    w.case(spec, run)


def misc_case(rng, w, i):
    kind = pick(rng, {"unfold": 2, "fold": 2, "pad": 3, "act": 3})
    dtype = pick(rng, {"float32": 6, "float64": 2, "bfloat16": 1})
    seed = SEED + 1000 * i
    spec = {"op": kind, "dtype": dtype, "seed": seed}
    if kind in ("unfold", "fold"):
        kernel = [rng.randint(1, 3), rng.randint(1, 3)]
        dilation = [rng.choice([1, 1, 2]), rng.choice([1, 1, 2])]
        padding = [rng.randint(0, 2), rng.randint(0, 2)]
        stride = [rng.choice([1, 2, 3]), rng.choice([1, 2, 3])]
        c = rng.randint(1, 3)
        n = rng.choice([1, 1, 2, None])
        size = [rng.randint(2, 8), rng.randint(2, 8)]
        spec.update(kernel=kernel, dilation=dilation, padding=padding, stride=stride, size=size)
        if kind == "unfold":
            layout = pick(rng, {"contiguous": 3, "channels_last": 1 if n else 0, "strided": 1})
            xshape = ([n] if n else []) + [c] + size
            spec.update(x=xshape, layout=layout)
            w.case(spec, lambda: F.unfold(tensor(seed, xshape, dtype, layout), kernel, dilation, padding, stride))
        else:
            blocks = [(size[d] + 2 * padding[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1 for d in range(2)]
            count = max(blocks[0], 0) * max(blocks[1], 0)
            if rng.random() < 0.05:
                count += 1
            xshape = ([n] if n else []) + [c * kernel[0] * kernel[1], count]
            spec.update(x=xshape, layout="contiguous")
            w.case(spec, lambda: F.fold(tensor(seed, xshape, dtype), size, kernel, dilation, padding, stride))
    elif kind == "pad":
        nd = rng.randint(1, 3)
        mode = pick(rng, {"constant": 2, "reflect": 2, "replicate": 2, "circular": 2})
        xshape = [rng.randint(1, 2), rng.randint(1, 3)] + [rng.randint(1, 5) for _ in range(nd)]
        pads = [rng.randint(0, 4) for _ in range(2 * nd)]
        value = rng.choice([0.0, 1.5])
        layout = pick(rng, {"contiguous": 3, "channels_last": 1, "strided": 1})
        spec.update(x=xshape, pads=pads, mode=mode, value=value, layout=layout)
        w.case(spec, lambda: F.pad(tensor(seed, xshape, dtype, layout), pads, mode=mode,
                                   value=value if mode == "constant" else None))
    else:
        act = rng.choice(["relu6", "hardswish", "hardsigmoid", "leaky_relu", "prelu", "silu", "hardtanh"])
        xshape = [rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 6)]
        layout = pick(rng, {"contiguous": 3, "channels_last": 1, "strided": 1})
        spec.update(act=act, x=xshape, layout=layout)
        if act == "prelu":
            spec["weights"] = rng.choice([1, xshape[1]])

        def run():
            x = tensor(seed, xshape, dtype, layout) * 4
            if act == "relu6":
                return F.relu6(x)
            if act == "hardswish":
                return F.hardswish(x)
            if act == "hardsigmoid":
                return F.hardsigmoid(x)
            if act == "leaky_relu":
                return F.leaky_relu(x, 0.125)
            if act == "silu":
                return F.silu(x)
            if act == "hardtanh":
                return F.hardtanh(x, -0.5, 2.0)
            return F.prelu(x, tensor(seed + 1, [spec["weights"]], dtype))

        w.case(spec, run)


# Calls PyTorch refuses; each pins its message.
ERRORS = [
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 3, 3, 3]},
    {"op": "conv", "nd": 2, "x": [1, 1, 2, 2], "w": [4, 1, 3, 3]},
    {"op": "conv", "nd": 1, "x": [1, 1, 2], "w": [4, 1, 3]},
    {"op": "conv", "nd": 3, "x": [1, 1, 2, 4, 4], "w": [4, 1, 3, 3, 3]},
    {"op": "conv", "nd": 2, "x": [1, 3, 5, 5], "w": [4, 1, 3, 3], "groups": 3},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [1, 1, 3, 3], "groups": 2},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "bias_len": 3},
    {"op": "conv", "nd": 2, "x": [5, 5], "w": [4, 2, 3, 3]},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "stride": [0]},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "dilation": [0]},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "groups": 0},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "stride": [2], "padding": "same"},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "stride": [1, 1, 1]},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 0, 3]},
    {"op": "conv", "nd": 1, "x": [1, 2, 5], "w": [4, 2, 0]},
    {"op": "conv", "nd": 3, "x": [1, 2, 5, 5, 5], "w": [4, 2, 0, 3, 3]},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [0, 2, 3, 3]},
    {"op": "conv", "nd": 1, "x": [1, 2, 5], "w": [4, 2, 3, 3]},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "w_dtype": "float64"},
    {"op": "conv", "nd": 2, "x": [1, 2, 5, 5], "w": [4, 2, 3, 3], "bias_dtype": "float64"},
    {"op": "conv", "nd": 2, "x": [1, 2, 3, 3], "w": [4, 2, 3, 3], "padding": [1], "mode": "reflect", "pad_first": True},
    {"op": "conv", "nd": 2, "x": [1, 2, 2, 2], "w": [4, 2, 3, 3], "padding": [2], "mode": "reflect", "pad_first": True},
    {"op": "conv", "nd": 1, "x": [1, 2, 3], "w": [4, 2, 3], "padding": [4], "mode": "circular", "pad_first": True},
    {"op": "conv_transpose", "nd": 2, "x": [1, 2, 5, 5], "w": [3, 4, 3, 3]},
    {"op": "conv_transpose", "nd": 2, "x": [1, 2, 5, 5], "w": [2, 4, 3, 3], "stride": [2], "output_padding": [2]},
    {"op": "conv_transpose", "nd": 1, "x": [1, 2, 5], "w": [2, 4, 3], "stride": [2], "output_padding": [2]},
    {"op": "conv_transpose", "nd": 3, "x": [1, 2, 3, 3, 3], "w": [2, 4, 3, 3, 3], "stride": [2], "output_padding": [2]},
    {"op": "conv_transpose", "nd": 2, "x": [1, 2, 5, 5], "w": [2, 4, 3, 3], "groups": 3},
    {"op": "conv_transpose", "nd": 2, "x": [1, 2, 1, 1], "w": [2, 4, 3, 3], "padding": [3]},
    {"op": "conv_transpose", "nd": 1, "x": [1, 2, 1], "w": [2, 4, 3], "padding": [3]},
    {"op": "conv_transpose", "nd": 2, "x": [1, 2, 5, 5], "w": [2, 4, 3, 3], "bias_len": 3},
    {"op": "max", "nd": 2, "x": [1, 2, 5, 5], "kernel": [3], "padding": [2]},
    {"op": "max", "nd": 2, "x": [1, 1, 2, 2], "kernel": [3]},
    {"op": "max", "nd": 3, "x": [1, 1, 2, 2, 2], "kernel": [3]},
    {"op": "max", "nd": 2, "x": [1, 1, 4, 4], "kernel": [2], "stride": [0]},
    {"op": "max", "nd": 2, "x": [1, 1, 4, 4], "kernel": [2], "dilation": [0]},
    {"op": "max", "nd": 3, "x": [1, 1, 4, 4, 4], "kernel": [2], "dilation": [0]},
    {"op": "max", "nd": 2, "x": [2, 2], "kernel": [2]},
    {"op": "max", "nd": 2, "x": [1, 0, 4, 4], "kernel": [2]},
    {"op": "max", "nd": 2, "x": [1, 1, 0, 4], "kernel": [2]},
    {"op": "avg", "nd": 2, "x": [1, 2, 5, 5], "kernel": [3], "padding": [2]},
    {"op": "avg", "nd": 2, "x": [1, 1, 2, 2], "kernel": [3]},
    {"op": "avg", "nd": 1, "x": [1, 1, 2], "kernel": [3]},
    {"op": "avg", "nd": 2, "x": [1, 1, 4, 4], "kernel": [2], "divisor_override": 0},
    {"op": "adaptive_avg", "nd": 2, "x": [1, 1, 0, 4], "output_size": [2, 2]},
    {"op": "adaptive_max", "nd": 2, "x": [1, 1, 0, 4], "output_size": [2, 2]},
    {"op": "adaptive_avg", "nd": 3, "x": [1, 1, 0, 4, 4], "output_size": [2, 2, 2]},
    {"op": "batch_norm", "x": [2, 2, 3], "running": 3},
    {"op": "batch_norm", "x": [2, 2, 3], "weight": 3},
    {"op": "batch_norm_train", "x": [1, 2, 1]},
    {"op": "group_norm", "x": [2, 4, 3], "groups": 3},
    {"op": "group_norm", "x": [2, 4, 3], "groups": 2, "weight": 3},
    {"op": "instance_norm", "x": [2, 4, 1]},
    {"op": "unfold", "x": [1, 1, 2, 2, 2], "kernel": [2, 2]},
    {"op": "unfold", "x": [1, 2, 5, 5], "kernel": [7, 7]},
    {"op": "unfold", "x": [1, 1, 4, 4], "kernel": [2, 2], "stride": [0, 0]},
    {"op": "fold", "x": [1, 17, 9], "size": [5, 5], "kernel": [3, 3]},
    {"op": "fold", "x": [1, 18, 8], "size": [5, 5], "kernel": [3, 3]},
    {"op": "fold", "x": [1, 1, 18, 9], "size": [5, 5], "kernel": [3, 3]},
    {"op": "pad", "x": [1, 1, 2, 2], "pads": [3, 3, 0, 0], "mode": "reflect"},
    {"op": "pad", "x": [1, 1, 3], "pads": [4, 0], "mode": "circular"},
    {"op": "pad", "x": [1, 1, 3], "pads": [1, 0, 1], "mode": "constant"},
    {"op": "prelu", "x": [1, 2, 3], "weights": 3},
]


def error_case(w, i, spec):
    spec = dict(spec, seed=SEED + 1000 * i, dtype="float32", layout="contiguous", error_case=True)
    op, seed = spec["op"], spec["seed"]
    x = lambda: tensor(seed, spec["x"], "float32")  # noqa: E731

    def run():
        if op in ("conv", "conv_transpose"):
            nd = spec["nd"]
            wt = tensor(seed + 1, spec["w"], spec.get("w_dtype", "float32"))
            b = None
            if "bias_len" in spec or "bias_dtype" in spec:
                b = tensor(seed + 2, [spec.get("bias_len", spec["w"][0])], spec.get("bias_dtype", "float32"))
            kw = dict(stride=spec.get("stride", [1]), dilation=spec.get("dilation", [1]), groups=spec.get("groups", 1))
            if op == "conv_transpose":
                f = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][nd - 1]
                return f(x(), wt, b, padding=spec.get("padding", [0]), output_padding=spec.get("output_padding", [0]), **kw)
            f = [F.conv1d, F.conv2d, F.conv3d][nd - 1]
            if spec.get("pad_first"):
                pads = []
                for _ in range(nd):
                    pads += [spec["padding"][0]] * 2
                return f(F.pad(x(), pads, mode=spec["mode"]), wt, b, padding=0, **kw)
            return f(x(), wt, b, padding=spec.get("padding", [0]), **kw)
        if op in ("max", "avg"):
            nd = spec["nd"]
            k = spec["kernel"]
            s = spec.get("stride", k)
            if op == "max":
                f = [F.max_pool1d, F.max_pool2d, F.max_pool3d][nd - 1]
                return f(x(), k, s, spec.get("padding", [0]), spec.get("dilation", [1]), return_indices=True)
            f = [F.avg_pool1d, F.avg_pool2d, F.avg_pool3d][nd - 1]
            if nd == 1:
                return f(x(), k, s, spec.get("padding", [0]))
            return f(x(), k, s, spec.get("padding", [0]), divisor_override=spec.get("divisor_override"))
        if op == "adaptive_avg":
            return [F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d][spec["nd"] - 1](x(), spec["output_size"])
        if op == "adaptive_max":
            return [F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d][spec["nd"] - 1](x(), spec["output_size"], True)
        c = spec["x"][1]
        if op == "batch_norm":
            r = spec.get("running", c)
            wt = torch.ones(spec["weight"]) if "weight" in spec else None
            return F.batch_norm(x(), torch.zeros(r), torch.ones(r), wt)
        if op == "batch_norm_train":
            return F.batch_norm(x(), None, None, training=True)
        if op == "group_norm":
            wt = torch.ones(spec["weight"]) if "weight" in spec else None
            return F.group_norm(x(), spec["groups"], wt)
        if op == "instance_norm":
            return F.instance_norm(x())
        if op == "unfold":
            return F.unfold(x(), spec["kernel"], stride=spec.get("stride", 1))
        if op == "fold":
            return F.fold(x(), spec["size"], spec["kernel"])
        if op == "pad":
            return F.pad(x(), spec["pads"], mode=spec["mode"])
        if op == "prelu":
            return F.prelu(x(), torch.ones(spec["weights"]))
        raise AssertionError(op)

    w.case(spec, run)


def main():
    torch.manual_seed(0)
    rng = random.Random(SEED)
    w = Writer()
    i = 0
    plan = [("conv", 1, 70), ("conv", 2, 150), ("conv", 3, 50), ("convT", 1, 30), ("convT", 2, 50),
            ("convT", 3, 10), ("pool", 1, 50), ("pool", 2, 80), ("pool", 3, 40), ("norm", 0, 50), ("misc", 0, 80)]
    for kind, nd, count in plan:
        for _ in range(count):
            i += 1
            if kind == "conv":
                conv_case(rng, w, i, nd)
            elif kind == "convT":
                conv_case(rng, w, i, nd, transposed=True)
            elif kind == "pool":
                pool_case(rng, w, i, nd)
            elif kind == "norm":
                norm_case(rng, w, i)
            else:
                misc_case(rng, w, i)
    for spec in ERRORS:
        i += 1
        error_case(w, i, spec)
    DATA.mkdir(parents=True, exist_ok=True)
    meta = {"torch": torch.__version__, "seed": SEED, "cases": w.cases}
    (DATA / "torch_conv.json").write_text(json.dumps(meta, separators=(",", ":")) + "\n")
    (DATA / "torch_conv.bin").write_bytes(bytes(w.blob))
    errors = sum("error" in c for c in w.cases)
    print(f"{len(w.cases)} cases ({errors} refused), {len(w.blob)} bytes of answers")


if __name__ == "__main__":
    main()
