"""PyTorch's float8 conversions, recorded for crates/axial-core/tests/float8.rs.

For each float8 dtype: the float32 value of every one of its 256 bit
patterns (as float32 bits), and the float8 bits `torch.Tensor.to` gives for
a set of float32 values: every pattern's value, the midpoints between
neighbours and one float32 ulp either side of them, the overflow range,
infinities, NaNs, signed zeros, float32 subnormals, and 10000 float32 bit
patterns drawn at random (seed 0).

    bench/.venv/bin/python oracle/torch_float8.py
"""

import json
import pathlib

import numpy as np
import torch

OUT = pathlib.Path(__file__).resolve().parent.parent / "crates/axial-core/tests/data/torch_float8.json"
DTYPES = {
    "float8_e4m3fn": torch.float8_e4m3fn,
    "float8_e5m2": torch.float8_e5m2,
    "float8_e4m3fnuz": torch.float8_e4m3fnuz,
    "float8_e5m2fnuz": torch.float8_e5m2fnuz,
}


def f32_bits(values):
    return np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.int64).tolist()


def main():
    rng = np.random.default_rng(0)
    record = {"torch": torch.__version__, "dtypes": {}}
    for name, dt in DTYPES.items():
        patterns = torch.arange(256, dtype=torch.uint8).view(dt)
        decoded = patterns.to(torch.float32).numpy()
        finite = np.unique(decoded[np.isfinite(decoded)].astype(np.float64))
        mids = (finite[1:] + finite[:-1]) / 2
        probes = [finite, mids, -mids, finite * 1.5, finite * 4.0, finite / 1024.0]
        probes = np.concatenate([np.asarray(p, dtype=np.float32) for p in probes])
        ulp_up = np.nextafter(probes, np.float32(np.inf))
        ulp_down = np.nextafter(probes, np.float32(-np.inf))
        special = np.array(
            [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1e-38, 3.4e38, -3.4e38,
             240.0, 247.0, 248.0, 256.0, 448.0, 464.0, 479.9, 480.0, 1e4, 57344.0, 61439.0,
             61440.0, 65536.0, 1e30],
            dtype=np.float32,
        )
        random = rng.integers(0, 2**32, size=10000, dtype=np.uint64).astype(np.uint32).view(np.float32)
        inputs = np.concatenate([probes, ulp_up, ulp_down, special, -special, random]).astype(np.float32)
        bits = inputs.view(np.uint32)
        inputs = np.unique(bits).view(np.float32)
        out = torch.from_numpy(inputs.copy()).to(dt).view(torch.uint8).numpy().astype(np.int64).tolist()
        record["dtypes"][name] = {
            "decoded": f32_bits(decoded),
            "inputs": f32_bits(inputs),
            "encoded": out,
        }
    OUT.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
