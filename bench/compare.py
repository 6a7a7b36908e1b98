"""Runs the axial benchmarks and the same cases in PyTorch (and the model
cases in ONNX Runtime), then prints per case the times, the ratios
axial/PyTorch and axial/ONNX Runtime, and the bandwidth each side reaches as
a fraction of the fastest plain memory copy measured in the same run.

    bench/.venv/bin/python bench/compare.py            # everything (~5 minutes)
    bench/.venv/bin/python bench/compare.py --filter add
    bench/.venv/bin/python bench/compare.py --report   # reprint the last results
    bench/.venv/bin/python bench/compare.py --benches model --filter 'encoder|minilm'  # the models
    bench/.venv/bin/python bench/compare.py --benches train --filter train_step  # a training step
    bench/.venv/bin/python bench/compare.py --benches train --filter train_step --rounds 5

With --rounds N the sides take turns N times (axial, PyTorch, ONNX Runtime,
then again) and each case's time is its median over the rounds; each
round's ratio is printed too. On a shared machine one round can be off by
a quarter either way.

Needs bench/setup.sh to have made bench/.venv. Results are kept in
bench/results/ (axial.json, torch.json, ort.json).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "results"
VENV_PYTHON = BENCH / ".venv" / "bin" / "python"

MIB = 1 << 20
WINDOWS = ((1 << 24) - 16) // 8 + 1  # unfold(0, 16, 8) of 16 Mi elements

# Bytes each case reads and writes (distinct elements, f32 unless named).
BYTES = {
    "memcpy": 128 * MIB,
    "copy": 128 * MIB,
    "transpose_contiguous": 128 * MIB,
    "broadcast_add": 128 * MIB + 16 * 1024,
    "sum_axis0": 64 * MIB + 16 * 1024,
    "sum_axis1": 64 * MIB + 16 * 1024,
    "cast_bf16": 64 * MIB + 32 * MIB,
    "unfold_copy": 64 * MIB + WINDOWS * 16 * 4,
    "unfold_sum": 64 * MIB + WINDOWS * 4,
    **{op: 128 * MIB for op in ("exp", "tanh", "erf", "gelu", "gelu_tanh", "sigmoid", "sin", "log")},
    "softmax_last": 128 * MIB,
    "softmax_first": 128 * MIB,
    "layer_norm": 128 * MIB,
    **{f"{case}_{half}": 64 * MIB for case in ("softmax_last", "layer_norm") for half in ("f16", "bf16")},
}
# Floating-point operations of the compute-bound cases.
FLOPS = {
    "matmul": 2 * 1024**3,
    "mm_1024x384x384": 2 * 1024 * 384 * 384,
    "mm_1024x384x1536": 2 * 1024 * 384 * 1536,
    "bmm_96x128x32x128": 2 * 96 * 128 * 32 * 128,
}

CASES = [
    "copy/alloc", "copy/out",
    "transpose_contiguous/alloc", "transpose_contiguous/out",
    "broadcast_add/alloc", "broadcast_add/out",
    "sum_axis0/alloc", "sum_axis1/alloc",
    "cast_bf16/alloc", "cast_bf16/out",
    "matmul/alloc",
    "unfold_copy/alloc", "unfold_copy/out",
    "unfold_sum/alloc",
    *[f"{op}/{form}" for op in ("exp", "tanh", "erf", "gelu", "gelu_tanh", "sigmoid", "sin", "log")
      for form in ("alloc", "out")],
    "softmax_last/alloc", "softmax_last/out", "softmax_first/alloc", "softmax_first/out",
    "layer_norm/alloc", "layer_norm/out",  # PyTorch has no out= form: "-"
    *[f"{case}_{half}/alloc" for case in ("softmax_last", "layer_norm") for half in ("f16", "bf16")],
    *[f"{mm}/{form}" for mm in ("mm_1024x384x384", "mm_1024x384x1536", "bmm_96x128x32x128")
      for form in ("alloc", "out")],
    "encoder_block/8x128", "minilm/8x40", "minilm/32x128",  # needs bench/fetch_minilm.sh
    # int8 and bf16: axial's converted models beside ONNX Runtime's int8 one
    # (their torch column: fp32 eager; bf16's ort column: ONNX Runtime fp32).
    "minilm_int8/8x40", "minilm_int8/32x128", "minilm_bf16/8x40", "minilm_bf16/32x128",
    *[f"conv/{op}" for op in ("stem_3x3s2", "pointwise", "depthwise_3x3", "depthwise_3x3s2", "depthwise_5x5",
                              "resnet_3x3", "resnet_1x1", "resnet_3x3s2")],
    "pool/max_3x3s2", "norm/batch_norm",
    # needs bench/fetch_efficientnet.sh; PyTorch's channels_last beside its NCHW
    *[f"efficientnet/b{b}{form}" for b in (1, 8) for form in ("", "_channels_last")],
    "train_step/8x128",  # forward, backward, AdamW of a MiniLM-sized block
]  # fmt: skip
# The axial rows whose PyTorch and ONNX Runtime columns are another case's.
SAME_AS = {"minilm_int8/8x40": ("minilm/8x40", "minilm_int8/8x40"),
           "minilm_int8/32x128": ("minilm/32x128", "minilm_int8/32x128"),
           "minilm_bf16/8x40": ("minilm/8x40", "minilm/8x40"),
           "minilm_bf16/32x128": ("minilm/32x128", "minilm/32x128")}  # fmt: skip


def target_dir():
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return Path(json.loads(meta)["target_directory"])


def with_baselines(filter_):
    """A regex for the cases matching `filter_`, and the memcpy baselines."""
    return f"memcpy|{filter_}" if filter_ else ""


def run_axial(filter_, benches):
    """Runs the criterion benches; returns {case: seconds} of this run only."""
    started = time.time()
    for bench in benches:
        cmd = ["cargo", "bench", "--bench", bench, "--"]
        cmd += [with_baselines(filter_)] if filter_ else []
        subprocess.run(cmd, cwd=ROOT, check=True)
    results = {}
    for estimates in (target_dir() / "criterion").glob("*/*/new/estimates.json"):
        if estimates.stat().st_mtime < started:
            continue  # left by an earlier run (a case skipped now)
        meta = json.loads((estimates.parent / "benchmark.json").read_text())
        name = f"{meta['group_id']}/{meta['function_id']}"
        ns = json.loads(estimates.read_text())["median"]["point_estimate"]
        results[name] = ns * 1e-9
    return {"cases": results}


def run_torch(filter_):
    python = VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable)
    out = RESULTS / "torch.json"
    cmd = [str(python), str(BENCH / "torch_cases.py"), "--json", str(out)]
    cmd += ["--filter", with_baselines(filter_)]
    subprocess.run(cmd, check=True)
    return json.loads(out.read_text())


def run_ort(filter_):
    """ONNX Runtime's model cases (bench/ort_minilm.py), or none without it."""
    python = VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable)
    out = RESULTS / "ort.json"
    out.unlink(missing_ok=True)
    cmd = [str(python), str(BENCH / "ort_minilm.py"), "--json", str(out), "--filter", filter_]
    subprocess.run(cmd, check=True)
    return json.loads(out.read_text()) if out.exists() else {"cases": {}}


def median_of(runs):
    """One side's results of several rounds: each case's median, and every
    round's time under "rounds"."""
    times = {}
    for run in runs:
        for case, seconds in run["cases"].items():
            times.setdefault(case, []).append(seconds)
    merged = dict(runs[-1])
    merged["cases"] = {case: statistics.median(ts) for case, ts in times.items()}
    merged["rounds"] = times
    return merged


def print_rounds(axial, torch):
    """Each round's ratio axial/PyTorch, for the cases both sides ran more
    than once."""
    a, t = axial.get("rounds", {}), torch.get("rounds", {})
    shown = [c for c in CASES if len(a.get(c, [])) > 1 and len(a[c]) == len(t.get(c, []))]
    if not shown:
        return
    print("\neach round (axial ms / PyTorch ms = ratio):")
    for case in shown:
        cells = [f"{x * 1e3:.1f}/{y * 1e3:.1f} = {x / y:.2f}" for x, y in zip(a[case], t[case])]
        print(f"  {case:28} " + ", ".join(cells))


def bandwidth(case, seconds):
    return BYTES[case.split("/")[0]] / seconds


def fmt_ms(seconds):
    return f"{seconds * 1e3:9.2f}" if seconds else f"{'-':>9}"


def report(axial, torch, ort):
    a, t, o = axial["cases"], torch["cases"], ort["cases"]
    baselines = {f"axial {k}": v for k, v in a.items() if k.startswith("memcpy/")}
    baselines.update({f"torch {k}": v for k, v in t.items() if k.startswith("memcpy/")})
    print(f"\nPyTorch {torch.get('torch', '?')}, {torch.get('threads', '?')} threads; "
          f"ONNX Runtime {ort.get('onnxruntime', '-')}, {ort.get('threads', '-')} threads")
    print("plain copies of 64 MiB (read + write bytes per second):")
    for name, seconds in sorted(baselines.items()):
        print(f"  {name:32} {fmt_ms(seconds)} ms  {bandwidth(name.split()[1], seconds) / 1e9:6.1f} GB/s")
    best = max((bandwidth(n.split()[1], s) for n, s in baselines.items()), default=None)

    header = (f"{'case':28} {'axial ms':>9} {'torch ms':>9} {'axial/torch':>11}  {'axial bw':>8} {'torch bw':>8}"
              f"  {'ort ms':>9} {'axial/ort':>9}")  # fmt: skip
    print("\n" + header + "\n" + "-" * len(header))
    for case in CASES:
        torch_case, ort_case = SAME_AS.get(case, (case, case))
        # Both PyTorch layouts of the network against axial's one (NHWC).
        sa = a.get(case.removesuffix("_channels_last"))
        st, so = t.get(torch_case), o.get(ort_case)
        if not (sa or st or so):
            continue  # not run (--filter)
        ratio = f"{sa / st:11.2f}" if sa and st else f"{'-':>11}"
        ort_cols = f"  {fmt_ms(so)} {sa / so:9.2f}" if sa and so else ""
        group = case.split("/")[0]
        if group in FLOPS:
            fa = f"{FLOPS[group] / sa / 1e9:5.1f}GF" if sa else "-"
            ft = f"{FLOPS[group] / st / 1e9:5.1f}GF" if st else "-"
        elif group not in BYTES:
            fa = ft = ""
        else:
            fa = f"{bandwidth(case, sa) / best:8.2f}" if sa and best else "-"
            ft = f"{bandwidth(case, st) / best:8.2f}" if st and best else "-"
        print(f"{case:28} {fmt_ms(sa)} {fmt_ms(st)} {ratio}  {fa:>8} {ft:>8}{ort_cols}")
    print(
        "\nbw: bytes read and written per second over the fastest plain copy above;"
        "\nmatmul and mm/bmm: GFLOP/s. '-': not measured (a kernel axial does not have yet)."
        "\nminilm_int8, minilm_bf16: axial's int8 and bf16 models; their torch column is PyTorch's"
        "\nfp32, the ort column ONNX Runtime's int8 model (for bf16: its fp32 one)."
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filter", default="", help="run only cases matching this regex")
    parser.add_argument("--report", action="store_true", help="reprint the last results")
    parser.add_argument("--benches", default="versus_torch,model,convnet,train",
                        help="the Rust benches to run (model: MiniLM's cases; convnet: EfficientNet's;"
                             " train: a training step)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="take turns this many times; report each case's median")
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    if not args.report:
        rounds = []
        for _ in range(max(args.rounds, 1)):
            axial = run_axial(args.filter, args.benches.split(","))
            rounds.append((axial, run_torch(args.filter), run_ort(args.filter)))
        for i, name in enumerate(["axial", "torch", "ort"]):
            merged = median_of([r[i] for r in rounds])
            (RESULTS / f"{name}.json").write_text(json.dumps(merged, indent=1) + "\n")
    axial = json.loads((RESULTS / "axial.json").read_text())
    torch = json.loads((RESULTS / "torch.json").read_text())
    ort_path = RESULTS / "ort.json"
    ort = json.loads(ort_path.read_text()) if ort_path.exists() else {"cases": {}}
    report(axial, torch, ort)
    print_rounds(axial, torch)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
