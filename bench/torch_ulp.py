"""How far PyTorch's f32 CPU functions are from their float64 values, in
ulps of f32: the accuracy against which the transcendental cases of
compare.py are timed (axial's are within one ulp everywhere: the tests
`vmath_ulp` in axial-core).

    bench/.venv/bin/python bench/torch_ulp.py

Inputs: every 2^9th f32 bit pattern with |x| < 10^4 (about 7 million);
references: the same torch functions in float64.
"""

import numpy as np
import torch

torch.set_num_threads(1)
bits = np.arange(0, 1 << 32, 1 << 9, dtype=np.uint64).astype(np.uint32) | 0x155
x = bits.view(np.float32)
x32 = torch.from_numpy(x[np.isfinite(x) & (np.abs(x) < 1e4)].copy())
x64 = x32.double()
TINY = float(np.finfo(np.float32).tiny)


def ulps(got, want):
    """|got - want| in units of the f32 spacing at want; 0 where both are NaN
    or where want, rounded to f32, is the infinity got is."""
    spacing = torch.exp2(torch.floor(torch.log2(want.abs().clamp_min(TINY))) - 23)
    e = (got.double() - want).abs() / spacing
    rounded = want.float()
    same = (torch.isinf(rounded) & (rounded == got)) | (torch.isnan(want) & torch.isnan(got))
    e[same] = 0
    return e


CASES = {
    "exp": torch.exp,
    "log": lambda t: torch.log(t.abs()),
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "erf": torch.erf,
    "gelu": torch.nn.functional.gelu,
    "gelu_tanh": lambda t: torch.nn.functional.gelu(t, approximate="tanh"),
    "sin": torch.sin,
}

for name, f in CASES.items():
    e = ulps(f(x32), f(x64))
    i = int(torch.argmax(e))
    share = float((e > 1).double().mean())
    print(f"{name:10} max {float(e[i]):12.2f} ulp at x = {float(x32[i]):<12.6g} share above 1 ulp: {share:.2e}")
