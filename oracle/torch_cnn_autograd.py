"""PyTorch's gradients of convolution, pooling, batch norm and the CNN
activations, for random configurations, written for axial to replay.

Each case is one op of `torch.nn.functional` on small float32 tensors:
`conv1d`/`conv2d` (stride, also above the kernel; padding as numbers,
'same' and 'valid'; dilation; groups, depthwise included; bias or not),
`conv_transpose1d/2d` (stride, padding, dilation, output padding, groups),
`max_pool1d/2d` (padding, dilation, ceil_mode; integer-valued inputs for
ties), `avg_pool1d/2d` (padding, ceil_mode, count_include_pad,
divisor_override), `adaptive_avg_pool1d/2d`, `adaptive_max_pool1d/2d`
(integer-valued inputs for ties), `group_norm`, `instance_norm`,
`instance_norm` with running statistics, `batch_norm` in training
(with the running statistics it updates) and in eval mode, `relu6`,
`hardswish`, `hardsigmoid`, `leaky_relu`, `prelu`, and convolutions
padding in reflect, replicate and circular mode; batches of 1 and more,
and channels-last (the case is replayed on an NHWC tensor by axis). The
forward runs in `torch.autograd` with a random output gradient; the inputs,
the output, the gradient and every input's gradient go to a JSON file that
`crates/axial-core/tests/torch_cnn_autograd.rs` replays.

    bash bench/setup.sh                                 # once: bench/.venv with torch
    bench/.venv/bin/python oracle/torch_cnn_autograd.py # rewrites the JSON file

The output depends only on the seed and the PyTorch version.
"""

import json
import math
import random
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/axial-core/tests/data/torch_cnn_autograd.json"

SEED = 20_261_207
PER_KIND = {
    "conv": 120,
    "max_pool": 50,
    "avg_pool": 50,
    "adaptive_avg_pool": 20,
    "batch_norm": 24,
    "activation": 20,
    "conv_mode": 30,
    "adaptive_max_pool": 24,
    "group_norm": 24,
    "instance_norm": 16,
    "conv_transpose": 60,
    "instance_norm_running": 16,
}


def flat(t):
    return {"shape": list(t.shape), "data": [float(v) for v in t.detach().reshape(-1).tolist()]}


def leaf(shape, ties=False):
    if ties:
        t = torch.randint(-3, 4, shape).float()
    else:
        t = torch.randn(shape)
    return t.requires_grad_(True)


def spatial_sizes(rng, dims, lo, hi):
    return [rng.randint(lo, hi) for _ in range(dims)]


def conv_case(rng):
    dims = rng.choice([1, 2])
    groups = rng.choice([1, 1, 2, 3, "depthwise"])
    cin_per = rng.randint(1, 3)
    if groups == "depthwise":
        groups = rng.randint(1, 4)
        cin_per = 1
        cout = groups * rng.choice([1, 2])
    else:
        cout = groups * rng.randint(1, 3)
    cin = cin_per * groups
    kernel = spatial_sizes(rng, dims, 1, 3)
    stride = spatial_sizes(rng, dims, 1, 4)  # above the kernel sometimes
    dilation = spatial_sizes(rng, dims, 1, 2)
    pad_kind = rng.choice(["num", "num", "same", "valid"])
    if pad_kind == "same":
        stride = [1] * dims
        padding = "same"
    elif pad_kind == "valid":
        padding = "valid"
    else:
        padding = spatial_sizes(rng, dims, 0, 2)
    batch = rng.choice([1, 1, 2, 3])
    size = spatial_sizes(rng, dims, 3, 8)
    x = leaf([batch, cin] + size)
    w = leaf([cout, cin_per] + kernel)
    b = leaf([cout]) if rng.random() < 0.6 else None
    fn = F.conv1d if dims == 1 else F.conv2d
    y = fn(x, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups)
    inputs = {"x": x, "w": w}
    if b is not None:
        inputs["b"] = b
    params = {
        "dims": dims,
        "stride": stride,
        "padding": padding,
        "dilation": dilation,
        "groups": groups,
        "channels_last": rng.random() < 0.3,
    }
    return params, inputs, y


def conv_mode_case(rng):
    """A convolution padding in another mode, as `nn.Conv2d` computes it:
    `F.pad` in that mode, then no padding."""
    dims = rng.choice([1, 2])
    mode = rng.choice(["reflect", "replicate", "circular"])
    groups = rng.choice([1, 2])
    cin, cout = groups * rng.randint(1, 2), groups * rng.randint(1, 2)
    kernel = spatial_sizes(rng, dims, 1, 3)
    stride = spatial_sizes(rng, dims, 1, 3)
    dilation = spatial_sizes(rng, dims, 1, 2)
    padding = spatial_sizes(rng, dims, 1, 2)
    size = spatial_sizes(rng, dims, 3, 7)
    x = leaf([rng.choice([1, 2]), cin] + size)
    w = leaf([cout, cin // groups] + kernel)
    b = leaf([cout]) if rng.random() < 0.5 else None
    pads = [p for q in reversed(padding) for p in (q, q)]
    fn = F.conv1d if dims == 1 else F.conv2d
    y = fn(F.pad(x, pads, mode=mode), w, b, stride=stride, dilation=dilation, groups=groups)
    inputs = {"x": x, "w": w}
    if b is not None:
        inputs["b"] = b
    params = {
        "dims": dims,
        "stride": stride,
        "padding": padding,
        "padding_mode": mode,
        "dilation": dilation,
        "groups": groups,
        "channels_last": rng.random() < 0.3,
    }
    return params, inputs, y


def conv_transpose_case(rng):
    """`conv_transpose1d/2d`: stride, padding, dilation, output padding
    below the stride or (past it) below the dilation, groups, bias or not."""
    dims = rng.choice([1, 2])
    groups = rng.choice([1, 1, 2, 3])
    cin, cout_per = groups * rng.randint(1, 2), rng.randint(1, 3)
    kernel = spatial_sizes(rng, dims, 1, 3)
    stride = spatial_sizes(rng, dims, 1, 3)
    dilation = spatial_sizes(rng, dims, 1, 3)
    padding = spatial_sizes(rng, dims, 0, 2)
    output_padding = [rng.randint(0, max(s, d) - 1) for s, d in zip(stride, dilation)]
    size = spatial_sizes(rng, dims, 2, 6)
    x = leaf([rng.choice([1, 1, 2, 3]), cin] + size)
    w = leaf([cin, cout_per] + kernel)
    b = leaf([cout_per * groups]) if rng.random() < 0.6 else None
    fn = F.conv_transpose1d if dims == 1 else F.conv_transpose2d
    y = fn(
        x,
        w,
        b,
        stride=stride,
        padding=padding,
        output_padding=output_padding,
        groups=groups,
        dilation=dilation,
    )
    inputs = {"x": x, "w": w}
    if b is not None:
        inputs["b"] = b
    params = {
        "dims": dims,
        "stride": stride,
        "padding": padding,
        "output_padding": output_padding,
        "dilation": dilation,
        "groups": groups,
        "channels_last": rng.random() < 0.3,
    }
    return params, inputs, y


def pool_input(rng, dims, kernel, ties=False):
    batch = rng.choice([1, 2])
    channels = rng.randint(1, 3)
    size = [rng.randint(k, k + 6) for k in kernel]
    return leaf([batch, channels] + size, ties)


def max_pool_case(rng):
    dims = rng.choice([1, 2])
    kernel = spatial_sizes(rng, dims, 1, 3)
    stride = spatial_sizes(rng, dims, 1, 4)
    dilation = spatial_sizes(rng, dims, 1, 2)
    padding = [rng.randint(0, ((k - 1) * d + 1) // 2) for k, d in zip(kernel, dilation)]
    padding = [min(p, k // 2) for p, k in zip(padding, kernel)]
    ceil_mode = rng.random() < 0.4
    x = pool_input(rng, dims, [(k - 1) * d + 1 for k, d in zip(kernel, dilation)], ties=rng.random() < 0.3)
    fn = F.max_pool1d if dims == 1 else F.max_pool2d
    y = fn(x, kernel, stride, padding, dilation, ceil_mode=ceil_mode)
    params = {
        "dims": dims,
        "kernel": kernel,
        "stride": stride,
        "padding": padding,
        "dilation": dilation,
        "ceil_mode": ceil_mode,
        "channels_last": rng.random() < 0.3,
    }
    return params, {"x": x}, y


def avg_pool_case(rng):
    dims = rng.choice([1, 2])
    kernel = spatial_sizes(rng, dims, 1, 3)
    stride = spatial_sizes(rng, dims, 1, 4)
    padding = [rng.randint(0, k // 2) for k in kernel]
    ceil_mode = rng.random() < 0.5
    include = rng.random() < 0.5
    divisor = rng.randint(1, 5) if dims == 2 and rng.random() < 0.2 else None
    x = pool_input(rng, dims, kernel)
    if dims == 1:
        y = F.avg_pool1d(x, kernel, stride, padding, ceil_mode, include)
    else:
        y = F.avg_pool2d(x, kernel, stride, padding, ceil_mode, include, divisor)
    params = {
        "dims": dims,
        "kernel": kernel,
        "stride": stride,
        "padding": padding,
        "ceil_mode": ceil_mode,
        "count_include_pad": include,
        "divisor_override": divisor,
        "channels_last": rng.random() < 0.3,
    }
    return params, {"x": x}, y


def adaptive_case(rng):
    dims = rng.choice([1, 2])
    x = pool_input(rng, dims, [1] * dims)
    out = [rng.randint(1, n + 1) for n in x.shape[2:]]
    fn = F.adaptive_avg_pool1d if dims == 1 else F.adaptive_avg_pool2d
    y = fn(x, out)
    return {"dims": dims, "out": out, "channels_last": rng.random() < 0.3}, {"x": x}, y


def adaptive_max_case(rng):
    dims = rng.choice([1, 2])
    x = pool_input(rng, dims, [1] * dims, ties=rng.random() < 0.3)
    out = [rng.randint(1, n + 1) for n in x.shape[2:]]
    fn = F.adaptive_max_pool1d if dims == 1 else F.adaptive_max_pool2d
    y = fn(x, out)
    return {"dims": dims, "out": out, "channels_last": rng.random() < 0.3}, {"x": x}, y


# WELL_CONDITIONED: group and instance norm draw at least 4 elements per
# group. With 2 or 3 close ones the variance is tiny next to `eps` and the
# input's gradient cancels (∂y/∂x ∝ 1 − 1/N − x̂²/N): PyTorch's own float32
# kernel (dx = c1·dy + c2·x + c3) is then 0.4% off its float64 gradient,
# so no float32 replay can agree with it within 1e-5.
def group_norm_case(rng):
    dims = rng.choice([0, 1, 2])
    groups = rng.randint(1, 3)
    channels = groups * rng.randint(1, 3)
    size = spatial_sizes(rng, dims, 1, 4)
    if channels // groups * math.prod(size) < 4:
        raise ValueError("fewer than 4 elements per group")  # see WELL_CONDITIONED
    x = leaf([rng.choice([1, 2]), channels] + size)
    affine = rng.random() < 0.7
    inputs = {"x": x}
    if affine:
        inputs["w"] = leaf([channels])
        inputs["b"] = leaf([channels])
    eps = rng.choice([1e-5, 1e-3])
    y = F.group_norm(x, groups, inputs.get("w"), inputs.get("b"), eps)
    params = {"dims": dims, "groups": groups, "eps": eps, "channels_last": rng.random() < 0.3}
    return params, inputs, y


def instance_norm_case(rng):
    dims = rng.choice([1, 2])
    channels = rng.randint(1, 3)
    size = [rng.randint(2, 4)] + spatial_sizes(rng, dims - 1, 1, 4)
    if math.prod(size) < 4:
        raise ValueError("fewer than 4 elements per instance")  # see WELL_CONDITIONED
    x = leaf([rng.choice([1, 2]), channels] + size)
    affine = rng.random() < 0.6
    inputs = {"x": x}
    if affine:
        inputs["w"] = leaf([channels])
        inputs["b"] = leaf([channels])
    eps = rng.choice([1e-5, 1e-3])
    y = F.instance_norm(x, weight=inputs.get("w"), bias=inputs.get("b"), eps=eps)
    return {"dims": dims, "eps": eps, "channels_last": rng.random() < 0.3}, inputs, y


def instance_norm_running_case(rng):
    """`InstanceNorm` with `track_running_stats=True` in training: the
    running statistics move towards the batch's average of the instances'."""
    dims = rng.choice([1, 2])
    channels = rng.randint(1, 3)
    size = [rng.randint(2, 4)] + spatial_sizes(rng, dims - 1, 2, 4)
    if math.prod(size) < 4:
        raise ValueError("fewer than 4 elements per instance")  # see WELL_CONDITIONED
    x = leaf([rng.choice([1, 2, 3]), channels] + size)
    affine = rng.random() < 0.5
    inputs = {"x": x}
    if affine:
        inputs["w"] = leaf([channels])
        inputs["b"] = leaf([channels])
    momentum = rng.choice([0.1, 0.5])
    eps = rng.choice([1e-5, 1e-3])
    rm = torch.randn(channels)
    rv = torch.rand(channels) + 0.5
    rm0, rv0 = rm.clone(), rv.clone()
    y = F.instance_norm(
        x, rm, rv, inputs.get("w"), inputs.get("b"), use_input_stats=True, momentum=momentum, eps=eps
    )
    params = {
        "dims": dims,
        "momentum": momentum,
        "eps": eps,
        "running_mean": flat(rm0),
        "running_var": flat(rv0),
        "running_mean_after": flat(rm),
        "running_var_after": flat(rv),
        "channels_last": rng.random() < 0.3,
    }
    return params, inputs, y


def batch_norm_case(rng):
    dims = rng.choice([0, 1, 2])
    channels = rng.randint(1, 4)
    batch = rng.choice([1, 2, 3]) if dims else rng.randint(2, 5)
    size = spatial_sizes(rng, dims, 1, 4)
    if batch * max(1, torch.tensor(size).prod().item() if size else 1) < 2:
        size = [s + 1 for s in size] or []
        batch = max(batch, 2) if not size else batch
    x = leaf([batch, channels] + size)
    affine = rng.random() < 0.7
    w = leaf([channels]) if affine else None
    b = leaf([channels]) if affine else None
    training = rng.random() < 0.7
    momentum = rng.choice([0.1, 0.3, 0.9])
    eps = rng.choice([1e-5, 1e-3])
    rm = torch.randn(channels)
    rv = torch.rand(channels) + 0.5
    rm0, rv0 = rm.clone(), rv.clone()
    y = F.batch_norm(x, rm, rv, w, b, training=training, momentum=momentum, eps=eps)
    inputs = {"x": x}
    if affine:
        inputs["w"] = w
        inputs["b"] = b
    params = {
        "dims": dims,
        "training": training,
        "momentum": momentum,
        "eps": eps,
        "running_mean": flat(rm0),
        "running_var": flat(rv0),
        "running_mean_after": flat(rm),
        "running_var_after": flat(rv),
        "channels_last": dims == 2 and rng.random() < 0.3,
    }
    return params, inputs, y


def activation_case(rng):
    name = rng.choice(["relu6", "hardswish", "hardsigmoid", "leaky_relu", "prelu"])
    x = leaf([rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 5)])
    with torch.no_grad():
        x.mul_(4.0)  # reach past ±3 and 6
    params = {"name": name}
    inputs = {"x": x}
    if name == "relu6":
        y = F.relu6(x)
    elif name == "hardswish":
        y = F.hardswish(x)
    elif name == "hardsigmoid":
        y = F.hardsigmoid(x)
    elif name == "leaky_relu":
        params["slope"] = rng.choice([0.01, 0.2])
        y = F.leaky_relu(x, params["slope"])
    else:
        w = leaf([x.shape[1] if rng.random() < 0.6 else 1])
        inputs["w"] = w
        y = F.prelu(x, w)
    return params, inputs, y


KINDS = {
    "conv": conv_case,
    "max_pool": max_pool_case,
    "avg_pool": avg_pool_case,
    "adaptive_avg_pool": adaptive_case,
    "batch_norm": batch_norm_case,
    "activation": activation_case,
    "conv_mode": conv_mode_case,
    "adaptive_max_pool": adaptive_max_case,
    "group_norm": group_norm_case,
    "instance_norm": instance_norm_case,
    "conv_transpose": conv_transpose_case,
    "instance_norm_running": instance_norm_running_case,
}


def main():
    rng = random.Random(SEED)
    torch.manual_seed(SEED)
    cases = []
    for kind, count in PER_KIND.items():
        made = 0
        while made < count:
            try:
                params, inputs, y = KINDS[kind](rng)
            except (RuntimeError, ValueError):
                continue  # an invalid configuration: draw another
            seed = torch.randn(y.shape)
            grads = torch.autograd.grad(y, list(inputs.values()), seed)
            cases.append(
                {
                    "kind": kind,
                    "params": params,
                    "inputs": {k: flat(v) for k, v in inputs.items()},
                    "value": flat(y),
                    "seed": flat(seed),
                    "grads": {k: flat(g) for k, g in zip(inputs, grads)},
                }
            )
            made += 1
    OUT.write_text(json.dumps({"torch": torch.__version__, "seed": SEED, "cases": cases}))
    print(f"{len(cases)} cases -> {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
