"""Runs the generalized tensors' benchmarks on both sides in one run, then
prints per case both times and the ratio axial/PyTorch:

    bench/.venv/bin/python bench/compare_generalized.py
    bench/.venv/bin/python bench/compare_generalized.py --report   # reprint the last run

Cases: crates/axial-core/benches/generalized.rs and bench/torch_generalized.py.
Results are kept in bench/results/ (generalized_axial.json, generalized_torch.json).
"""

import argparse
import json
import os
import subprocess
import sys
import time

from compare import RESULTS, ROOT, VENV_PYTHON, target_dir

BENCH = ROOT / "bench"
CASES = ["spmm/coo", "spmm/csr", "spmm/dense", "qlinear/int8", "qlinear/dequantize_f32",
         "softmax/ragged", "softmax/padded"]


def run_axial():
    started = time.time()
    subprocess.run(["cargo", "bench", "-p", "axial-core", "--bench", "generalized"], cwd=ROOT, check=True)
    results = {}
    for estimates in (target_dir() / "criterion").glob("*/*/new/estimates.json"):
        if estimates.stat().st_mtime < started:
            continue
        meta = json.loads((estimates.parent / "benchmark.json").read_text())
        name = f"{meta['group_id']}/{meta['function_id']}"
        results[name] = json.loads(estimates.read_text())["median"]["point_estimate"] * 1e-9
    return {"cases": results}


def run_torch():
    python = VENV_PYTHON if VENV_PYTHON.exists() else sys.executable
    out = RESULTS / "generalized_torch.json"
    subprocess.run([str(python), str(BENCH / "torch_generalized.py"), "--json", str(out)], check=True, cwd=BENCH)
    return json.loads(out.read_text())


def report(axial, torch):
    a, t = axial["cases"], torch["cases"]
    print(f"\nPyTorch {torch.get('torch', '?')}, {torch.get('threads', '?')} threads; load average {os.getloadavg()}")
    print(f"{'case':26} {'axial ms':>9} {'torch ms':>9} {'axial/torch':>11}")
    for case in CASES:
        sa, st = a.get(case), t.get(case)
        ratio = f"{sa / st:11.2f}" if sa and st else f"{'-':>11}"
        fa = f"{sa * 1e3:9.3f}" if sa else f"{'-':>9}"
        ft = f"{st * 1e3:9.3f}" if st else f"{'-':>9}"
        print(f"{case:26} {fa} {ft} {ratio}")
    for side, r in (("axial", a), ("torch", t)):
        if r.get("spmm/coo") and r.get("spmm/dense"):
            print(f"{side}: sparse (CSR) over dense product {r['spmm/csr'] / r['spmm/dense']:.3f}, "
                  f"int8 over f32-dequantized linear {r['qlinear/int8'] / r['qlinear/dequantize_f32']:.3f}, "
                  f"ragged over padded softmax {r['softmax/ragged'] / r['softmax/padded']:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="reprint the last results")
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    if not args.report:
        axial = run_axial()
        (RESULTS / "generalized_axial.json").write_text(json.dumps(axial, indent=1) + "\n")
        run_torch()
    axial = json.loads((RESULTS / "generalized_axial.json").read_text())
    torch = json.loads((RESULTS / "generalized_torch.json").read_text())
    report(axial, torch)


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.path.insert(0, str(BENCH))
    main()
