"""The cases of crates/axial-core/benches/generalized.rs, in PyTorch on the CPU.

Sparse × dense at 0.1% density of 4096² (COO through torch.sparse.mm, CSR
through MKL, and the dense product), the quantized linear layer 1024 × 1024
(torch.ops.quantized.linear with a prepacked qint8 weight, x86 engine, and
the f32 linear), and softmax over a ragged batch (a jagged nested tensor,
and the same batch padded with -inf). Prints JSON, or writes it to --json:

    {"torch": VERSION, "threads": N, "cases": {"spmm/coo": SECONDS, ...}}
"""

import argparse
import json
import os
import random
import re
import sys
import warnings

import torch

from torch_cases import timed

warnings.filterwarnings("ignore")
SIDE, COLS = 4096, 256
NNZ = SIDE * SIDE // 1000
QM = QK = QN = 1024
ITEMS, FEATURES = 32, 128


def cases():
    g = torch.Generator().manual_seed(0)
    rng = random.Random(15)
    seen = set()
    while len(seen) < NNZ:
        seen.add((rng.randrange(SIDE), rng.randrange(SIDE)))
    idx = torch.tensor(sorted(seen)).t()
    coo = torch.sparse_coo_tensor(idx, torch.rand(NNZ, generator=g), (SIDE, SIDE)).coalesce()
    csr = coo.to_sparse_csr()
    dense_a = coo.to_dense()
    d = torch.rand(SIDE, COLS, generator=g)

    torch.backends.quantized.engine = "x86"
    x = torch.rand(QM, QK, generator=g)
    w = torch.randn(QN, QK, generator=g) * 0.05
    bias = torch.rand(QN, generator=g)
    qx = torch.quantize_per_tensor(x, 1.0 / 255.0, 0, torch.quint8)
    qw = torch.quantize_per_tensor(w, 0.002, 0, torch.qint8)
    packed = torch.ops.quantized.linear_prepack(qw, bias)
    wf = qw.dequantize()

    rng = random.Random(16)
    lengths = [rng.randint(16, 512) for _ in range(ITEMS)]
    items = [torch.rand(n, FEATURES, generator=g) for n in lengths]
    nj = torch.nested.nested_tensor(items, layout=torch.jagged)
    padded = nj.to_padded_tensor(float("-inf"))

    return [
        ("spmm/coo", lambda: torch.sparse.mm(coo, d)),
        ("spmm/csr", lambda: csr @ d),
        ("spmm/dense", lambda: dense_a @ d),
        ("qlinear/int8", lambda: torch.ops.quantized.linear(qx, packed, 0.05, 128)),
        ("qlinear/dequantize_f32", lambda: torch.quantize_per_tensor(
            torch.nn.functional.linear(qx.dequantize(), wf, bias), 0.05, 128, torch.quint8)),
        ("softmax/ragged", lambda: torch.softmax(nj, dim=1)),
        ("softmax/padded", lambda: torch.softmax(padded, dim=1)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here instead of stdout")
    parser.add_argument("--filter", default="", help="run only cases matching this regex")
    args = parser.parse_args()
    threads = os.cpu_count() or 1
    torch.set_num_threads(threads)
    results = {}
    with torch.inference_mode():
        for name, fn in cases():
            if not re.search(args.filter, name):
                continue
            results[name] = timed(fn, 10, 2.0, 0.5)
            print(f"{name:28} {results[name] * 1e3:9.3f} ms", file=sys.stderr)
    text = json.dumps({"torch": torch.__version__, "threads": threads, "cases": results}, indent=1)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
