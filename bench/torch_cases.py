"""The cases of benches/versus_torch.rs, in PyTorch on the CPU.

Each case is timed as `alloc` (the form users write, allocating its result)
and, where it has one, `out` (the same computation into an output allocated
once: `out=` or `copy_`). Every timing is the median of repeated calls after
a warm-up. Prints JSON (or writes it to --json PATH):

    {"torch": VERSION, "threads": N, "cases": {"copy/alloc": SECONDS, ...}}

The memcpy baselines (`memcpy/torch_copy_`, `memcpy/numpy_copyto`) are plain
copies of 64 MiB measured in the same run.
"""

import argparse
import json
import os
import re
import statistics
import sys
import time

import numpy as np
import torch

import torch_efficientnet
import torch_model
import torch_train

N = 4096  # side of the square matrices (4096² f32 = 64 MiB)
LEN = 1 << 24  # elements of the vector cases (16 Mi f32 = 64 MiB)
MATMUL_N = 1024
WINDOW, STEP = 16, 8  # unfold(0, 16, 8): overlapping windows


def timed(fn, min_reps, min_seconds, warmup_seconds):
    """Median seconds of one call of `fn`, after warming up."""
    end = time.perf_counter() + warmup_seconds
    fn()
    while time.perf_counter() < end:
        fn()
    times = []
    start = time.perf_counter()
    while len(times) < min_reps or time.perf_counter() - start < min_seconds:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cases():
    """(name, function) pairs; the names match the Rust side's `group/function`."""
    g = torch.Generator().manual_seed(0)

    def rand(*shape):
        return torch.rand(*shape, generator=g, dtype=torch.float32)

    a = rand(N, N)
    out = torch.empty(N, N)
    b = rand(N)
    x = rand(LEN)
    out_bf16 = torch.empty(LEN, dtype=torch.bfloat16)
    windows_shape = x.unfold(0, WINDOW, STEP).shape
    out_windows = torch.empty(windows_shape)
    m1, m2 = rand(MATMUL_N, MATMUL_N), rand(MATMUL_N, MATMUL_N)
    spread = (rand(LEN) - 0.5) * 8
    out_x = torch.empty(LEN)
    F = torch.nn.functional
    math = {
        "exp": (torch.exp, spread),
        "tanh": (torch.tanh, spread),
        "erf": (torch.erf, spread),
        "gelu": (torch._C._nn.gelu, spread),
        "gelu_tanh": (lambda v, **out: torch._C._nn.gelu(v, approximate="tanh", **out), spread),
        "sigmoid": (torch.sigmoid, spread),
        "sin": (torch.sin, spread),
        "log": (torch.log, spread.abs()),
    }
    sm = rand(N, N)
    rows = LEN // 384
    ln_x, ln_w, ln_b = rand(rows, 384), rand(384), rand(384)
    half = {"f16": torch.float16, "bf16": torch.bfloat16}
    sm_half = {k: sm.to(t) for k, t in half.items()}
    ln_half = {k: (ln_x.to(t), ln_w.to(t), ln_b.to(t)) for k, t in half.items()}
    mm = {
        "mm_1024x384x384": (rand(1024, 384), rand(384, 384)),
        "mm_1024x384x1536": (rand(1024, 384), rand(384, 1536)),
        "bmm_96x128x32x128": (rand(96, 128, 32), rand(96, 32, 128)),
    }
    mm_out = {k: torch.empty(*(a @ b).shape) for k, (a, b) in mm.items()}
    src_np = np.ones(LEN, dtype=np.float32)
    dst_np = np.zeros(LEN, dtype=np.float32)
    dst_x = torch.empty(LEN)

    return [
        ("memcpy/torch_copy_", lambda: dst_x.copy_(x)),
        ("memcpy/numpy_copyto", lambda: np.copyto(dst_np, src_np)),
        ("copy/alloc", lambda: a.clone()),
        ("copy/out", lambda: out.copy_(a)),
        ("transpose_contiguous/alloc", lambda: a.t().contiguous()),
        ("transpose_contiguous/out", lambda: out.copy_(a.t())),
        ("broadcast_add/alloc", lambda: a + b),
        ("broadcast_add/out", lambda: torch.add(a, b, out=out)),
        ("sum_axis0/alloc", lambda: a.sum(0)),
        ("sum_axis1/alloc", lambda: a.sum(1)),
        ("cast_bf16/alloc", lambda: x.to(torch.bfloat16)),
        ("cast_bf16/out", lambda: out_bf16.copy_(x)),
        ("matmul/alloc", lambda: m1 @ m2),
        ("unfold_copy/alloc", lambda: x.unfold(0, WINDOW, STEP).contiguous()),
        ("unfold_copy/out", lambda: out_windows.copy_(x.unfold(0, WINDOW, STEP))),
        ("unfold_sum/alloc", lambda: x.unfold(0, WINDOW, STEP).sum(-1)),
        *[(f"{k}/alloc", (lambda f, v: lambda: f(v))(f, v)) for k, (f, v) in math.items()],
        *[(f"{k}/out", (lambda f, v: lambda: f(v, out=out_x))(f, v)) for k, (f, v) in math.items()],
        ("softmax_last/alloc", lambda: torch.softmax(sm, 1)),
        ("softmax_last/out", lambda: torch.softmax(sm, 1, out=out)),
        ("softmax_first/alloc", lambda: torch.softmax(sm, 0)),
        ("softmax_first/out", lambda: torch.softmax(sm, 0, out=out)),
        ("layer_norm/alloc", lambda: F.layer_norm(ln_x, (384,), ln_w, ln_b, 1e-12)),
        *[(f"softmax_last_{k}/alloc", (lambda v: lambda: torch.softmax(v, 1))(v))
          for k, v in sm_half.items()],
        *[(f"layer_norm_{k}/alloc", (lambda x, w, b: lambda: F.layer_norm(x, (384,), w, b, 1e-12))(*p))
          for k, p in ln_half.items()],
        *[(f"{k}/alloc", (lambda a, b: lambda: a @ b)(a, b)) for k, (a, b) in mm.items()],
        *[(f"{k}/out", (lambda a, b, o: lambda: torch.matmul(a, b, out=o))(a, b, mm_out[k]))
          for k, (a, b) in mm.items()],
        *torch_model.cases(),
        *torch_efficientnet.conv_cases(),
        *torch_efficientnet.pool_norm_cases(),
        *torch_efficientnet.cases(),
        *torch_train.cases(),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here instead of stdout")
    parser.add_argument("--filter", default="", help="run only cases matching this regex")
    parser.add_argument("--min-reps", type=int, default=10)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--warmup-seconds", type=float, default=0.5)
    args = parser.parse_args()

    threads = os.cpu_count() or 1
    torch.set_num_threads(threads)
    results = {}
    with torch.inference_mode():
        for name, fn in cases():
            if not re.search(args.filter, name):
                continue
            results[name] = timed(fn, args.min_reps, args.min_seconds, args.warmup_seconds)
            print(f"{name:32} {results[name] * 1e3:9.3f} ms", file=sys.stderr)
    report = {"torch": torch.__version__, "threads": threads, "cases": results}
    text = json.dumps(report, indent=1)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
