"""PyTorch's optimizers, for axial to replay.

Runs `torch.optim.SGD`, `Adam` and `AdamW` (with momentum, dampening,
Nesterov, weight decay, AMSGrad, maximize), some with
`torch.nn.utils.clip_grad_norm_` before each step and a learning-rate
schedule (`StepLR`, `CosineAnnealingLR`, `LinearLR`) after it, for 100
steps on three float32 or float64 parameters (shapes [3, 4], [5], [2, 3])
with recorded gradients of magnitudes 1e-2 to 10 (the third parameter has
none at every seventh step, which the optimizer skips). Writes the
parameters, gradients and hyper-parameters, and the parameters after steps
1, 10 and 100, the learning rate and clipped norm at each step, to
`tests/data/torch_optim.json`; `tests/optim.rs` replays it.

    bench/.venv/bin/python oracle/torch_optim.py

The output depends only on the seed and the PyTorch version.
"""

import json
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/data/torch_optim.json"

SEED = 20_261_206
STEPS = 100
SHAPES = [[3, 4], [5], [2, 3]]
RECORDED = [1, 10, 100]
DTYPES = {"f32": torch.float32, "f64": torch.float64}

CASES = [
    ("sgd", {"lr": 0.1}, None, None),
    ("sgd", {"lr": 0.05, "momentum": 0.9, "dampening": 0.1, "weight_decay": 1e-2}, None, None),
    ("sgd", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-3}, None, None),
    ("sgd", {"lr": 0.01, "momentum": 0.5, "maximize": True}, None, None),
    ("adam", {"lr": 1e-2}, None, None),
    ("adam", {"lr": 1e-2, "weight_decay": 1e-2, "amsgrad": True}, None, None),
    ("adam", {"lr": 1e-2, "betas": (0.3, 0.9)}, None, None),
    ("adamw", {"lr": 1e-2}, None, None),
    ("adamw", {"lr": 1e-2, "betas": (0.8, 0.99), "eps": 1e-6, "amsgrad": True, "weight_decay": 0.1}, None, None),
    ("adam", {"lr": 1e-2, "maximize": True}, None, None),
    ("adam", {"lr": 1e-2}, 1.0, {"kind": "step", "step_size": 10, "gamma": 0.5}),
    ("adamw", {"lr": 1e-2}, None, {"kind": "cosine", "t_max": 40, "eta_min": 1e-4}),
    ("sgd", {"lr": 0.05, "momentum": 0.9}, 2.0, {"kind": "linear", "start_factor": 0.1, "end_factor": 1.0, "total_iters": 20}),
]


def optimizer(kind, params, config):
    config = dict(config, foreach=False)
    return {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[kind](
        params, **config
    )


def scheduler(opt, spec):
    if spec is None:
        return None
    if spec["kind"] == "step":
        return torch.optim.lr_scheduler.StepLR(opt, spec["step_size"], spec["gamma"])
    if spec["kind"] == "cosine":
        return torch.optim.lr_scheduler.CosineAnnealingLR(opt, spec["t_max"], spec["eta_min"])
    return torch.optim.lr_scheduler.LinearLR(
        opt, spec["start_factor"], spec["end_factor"], spec["total_iters"]
    )


def values(t):
    """The elements, each written with the fewest digits that give it back
    in its own dtype."""
    flat = t.detach().flatten()
    if flat.dtype == torch.float32:
        return [float(str(v)) for v in flat.numpy()]
    return [float(v) for v in flat.tolist()]


def run(gen, kind, config, clip, schedule, dtype):
    params = [torch.randn(s, generator=gen, dtype=torch.float64).to(dtype).requires_grad_() for s in SHAPES]
    start = [values(p) for p in params]
    opt = optimizer(kind, params, config)
    sched = scheduler(opt, schedule)
    grads, lrs, norms, recorded = [], [], [], []
    for step in range(1, STEPS + 1):
        opt.zero_grad()
        step_grads = []
        for i, p in enumerate(params):
            if i == 2 and step % 7 == 3:
                step_grads.append(None)
                continue
            scale = 10.0 ** float(torch.empty(()).uniform_(-2, 1, generator=gen))
            g = (torch.randn(p.shape, generator=gen, dtype=torch.float64) * scale).to(dtype)
            p.grad = g.clone()
            step_grads.append(values(g))
        grads.append(step_grads)
        if clip is not None:
            norms.append(float(torch.nn.utils.clip_grad_norm_(params, clip, foreach=False)))
        opt.step()
        if sched is not None:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
        if step in RECORDED:
            recorded.append({"step": step, "params": [values(p) for p in params]})
    return start, grads, lrs, norms, recorded


def main():
    gen = torch.Generator().manual_seed(SEED)
    cases = []
    for kind, config, clip, schedule in CASES:
        for name, dtype in DTYPES.items():
            start, grads, lrs, norms, recorded = run(gen, kind, config, clip, schedule, dtype)
            full = dict(optimizer(kind, [torch.zeros(1)], config).defaults)
            cases.append(
                {
                    "optimizer": kind,
                    "dtype": name,
                    "lr": full["lr"],
                    "momentum": full.get("momentum", 0.0),
                    "dampening": full.get("dampening", 0.0),
                    "nesterov": full.get("nesterov", False),
                    "betas": list(full.get("betas", (0.9, 0.999))),
                    "eps": full.get("eps", 1e-8),
                    "weight_decay": full["weight_decay"],
                    "amsgrad": full.get("amsgrad", False),
                    "maximize": full["maximize"],
                    "clip": clip,
                    "schedule": schedule,
                    "start": start,
                    "grads": grads,
                    "lrs": lrs,
                    "norms": norms,
                    "recorded": recorded,
                }
            )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"torch": torch.__version__, "steps": STEPS, "cases": cases}) + "\n")
    print(f"{len(cases)} cases -> {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
