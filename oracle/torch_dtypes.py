"""PyTorch on the dtypes with few kernels (uint16/32/64, complex64/128, the
float8s), recorded for crates/axial-core/tests/torch_dtypes.rs: casts between
every pair of dtypes, the elementwise ops and comparisons PyTorch has for
them (and its refusals, with its messages), matmul, sum, prod,
mean, var and std (of empty float8 tensors too, which PyTorch fills
without a kernel), abs, angle, conj, and the printouts.

    bench/.venv/bin/python oracle/torch_dtypes.py

Casts of floats outside the range of a 32- or 64-bit integer dtype (and
of infinities and NaN to any integer dtype) are undefined in C++, and are
left out. Values are written flat in C order; a complex element as [re, im]; a
non-finite float as the string "nan", "inf" or "-inf".
"""

import json
import math
import pathlib

import torch

OUT = pathlib.Path(__file__).resolve().parent.parent / "crates/axial-core/tests/data/torch_dtypes.json"

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
    "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64,
    "complex64": torch.complex64, "complex128": torch.complex128,
    "float8_e4m3fn": torch.float8_e4m3fn, "float8_e5m2": torch.float8_e5m2,
    "float8_e4m3fnuz": torch.float8_e4m3fnuz, "float8_e5m2fnuz": torch.float8_e5m2fnuz,
}
NAME = {v: k for k, v in DTYPES.items()}


def num(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def flat(t):
    t = t.detach().contiguous().reshape(-1)
    if t.is_complex():
        t = torch.view_as_real(t.to(torch.complex128)).reshape(-1)
        return [num(v) for v in t.tolist()]
    if t.dtype in (torch.uint16, torch.uint32, torch.uint64):
        return [int(v) for v in t.tolist()]
    if t.dtype.is_floating_point:
        return [num(v) for v in t.to(torch.float64).tolist()]
    return [num(v) for v in t.tolist()]


def tensor(t):
    return {"dtype": NAME[t.dtype], "shape": list(t.shape), "values": flat(t)}


def case(op, inputs, fn, **args):
    entry = {"op": op, "inputs": [tensor(t) for t in inputs], "args": args}
    try:
        out = fn(*inputs)
        if isinstance(out, str):
            entry["repr"] = out
        else:
            entry["output"] = tensor(out)
    except Exception as e:  # noqa: BLE001 - PyTorch's refusal is the record
        entry["error"] = str(e).split("\n")[0]
    return entry


def reduced(t, kind, dims, correction, keepdim):
    if kind == "prod":
        return torch.prod(t, dims[0], keepdim=keepdim) if dims else torch.prod(t)
    f = torch.var if kind == "var" else torch.std
    return f(t, dims if dims else None, correction=correction, keepdim=keepdim)


def sources():
    """One tensor of every dtype, over values its dtype holds."""
    g = torch.Generator().manual_seed(0)
    out = {}
    reals = torch.tensor([0.0, 1.0, -2.5, 3.25, 100.0, -0.0, 0.5, 7.0, 1e-3, -448.0, 65504.0, 2.0 ** 40])
    for name, dt in DTYPES.items():
        if dt.is_complex:
            re = torch.randn(8, generator=g, dtype=torch.float64) * 3
            im = torch.randn(8, generator=g, dtype=torch.float64) * 3
            t = torch.complex(re, im).to(dt)
            t[0] = 0
            t[1] = complex(1.0, -0.0)
        elif dt == torch.bool:
            t = torch.tensor([True, False, True, True, False])
        elif dt in (torch.uint16, torch.uint32, torch.uint64, torch.uint8):
            t = torch.tensor([0, 1, 2, 7, 200, 255]).to(dt)
            if dt != torch.uint8:
                t = torch.cat([t, torch.tensor([torch.iinfo(dt).max if dt != torch.uint64 else 2**64 - 1], dtype=torch.uint64).to(dt) if dt != torch.uint64 else torch.tensor([2**64 - 1], dtype=torch.uint64)])
        elif not dt.is_floating_point:
            t = torch.tensor([0, 1, -2, 7, 100, -128, 127]).to(dt)
        else:
            t = reals.to(dt)
        out[name] = t
    return out


def main():
    torch.manual_seed(0)
    cases = []
    src = sources()
    # Casts between every pair.
    for a, x in src.items():
        for b, dt in DTYPES.items():
            # A float outside an integer dtype's range (an infinity
            # included) converts as C++ leaves undefined: left out.
            if (x.is_floating_point() or x.is_complex()) and not (dt.is_floating_point or dt.is_complex or dt == torch.bool):
                re = x.real if x.is_complex() else x
                re = re.to(torch.float64)
                info = torch.iinfo(dt)
                if not (torch.isfinite(re).all() and (re >= -2.0**63).all() and (re < 2.0**63).all()):
                    continue
                if info.bits >= 32 and ((re.trunc() < info.min) | (re.trunc() > info.max)).any():
                    continue
            cases.append(case("cast", [x], lambda x, dt=dt: x.to(dt), dtype=b))
    # Binary ops on each new dtype with itself.
    g = torch.Generator().manual_seed(1)
    binary = {
        "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
        "remainder": torch.remainder, "floor_divide": torch.floor_divide, "pow": torch.pow,
        "maximum": torch.maximum, "minimum": torch.minimum, "atan2": torch.atan2,
        "logical_and": torch.logical_and, "logical_or": torch.logical_or,
        "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    }
    unary = {
        "neg": torch.neg, "abs": torch.abs, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "exp": torch.exp,
        "log": torch.log, "log1p": torch.log1p, "expm1": torch.expm1, "sin": torch.sin, "cos": torch.cos,
        "tan": torch.tan, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu,
        "silu": torch.nn.functional.silu, "erf": torch.erf, "floor": torch.floor, "ceil": torch.ceil,
        "round": torch.round, "trunc": torch.trunc, "sign": torch.sign, "reciprocal": torch.reciprocal,
        "square": torch.square, "logical_not": torch.logical_not,
        "angle": torch.angle, "conj": lambda x: x.conj().resolve_conj(),
        "pow_scalar_2": lambda x: x ** 2, "pow_scalar_half": lambda x: x ** 0.5,
    }
    for name in ["uint16", "uint32", "uint64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"]:
        dt = DTYPES[name]
        if dt.is_complex:
            a = torch.complex(torch.randn(2, 3, generator=g, dtype=torch.float64), torch.randn(2, 3, generator=g, dtype=torch.float64)).to(dt)
            b = torch.complex(torch.randn(3, generator=g, dtype=torch.float64), torch.randn(3, generator=g, dtype=torch.float64)).to(dt)
            b[1] = complex(1.0, 0.0)
            a[0, 0] = b[0]
        elif dt.is_floating_point:
            a = torch.tensor([[1.0, 2.0, -3.5], [0.25, 8.0, 0.0]]).to(dt)
            b = torch.tensor([3.0, 2.0, -0.5]).to(dt)
        else:
            a = torch.tensor([[1, 2, 30], [4, 5, 0]]).to(dt)
            b = torch.tensor([3, 2, 7]).to(dt)
        for op, f in binary.items():
            cases.append(case(op, [a, b], f))
        for op, f in unary.items():
            cases.append(case(op, [a], f))
        for op, f in {"sum": torch.sum, "prod": torch.prod, "mean": torch.mean, "var": torch.var, "std": torch.std, "amax": torch.amax, "argmax": torch.argmax}.items():
            cases.append(case(op, [a], f))
        cases.append(case("matmul", [a, a.T.contiguous()], torch.matmul))
        cases.append(case("repr", [a], repr))
        cases.append(case("repr", [b], repr))
    # Complex matmul of a transposed operand, batched.
    for dt in (torch.complex64, torch.complex128):
        x = torch.complex(torch.randn(2, 4, 3, generator=g, dtype=torch.float64), torch.randn(2, 4, 3, generator=g, dtype=torch.float64)).to(dt)
        y = torch.complex(torch.randn(5, 3, generator=g, dtype=torch.float64), torch.randn(5, 3, generator=g, dtype=torch.float64)).to(dt)
        cases.append(case("matmul_t", [x, y], lambda x, y: x @ y.T))
    # matmul of each dtype but the complex ones over every pair of ranks
    # PyTorch has a kernel name for (dot, mv, mm, bmm), a transposed right
    # operand, and integer sums that overflow.
    for name in ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
                 "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"]:
        dt = DTYPES[name]
        def operand(shape, dt=dt):
            if dt.is_floating_point:
                return (torch.randn(shape, generator=g) * 4).to(dt)
            if dt == torch.bool:
                return torch.randint(0, 2, shape, generator=g).to(dt)
            hi = 2 ** (torch.iinfo(dt).bits - 2) if dt != torch.uint64 else 2 ** 62
            return torch.randint(0, hi, shape, generator=g, dtype=torch.int64).to(dt)
        for sa, sb in [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 4), (4, 2)), ((2, 3, 4), (4, 2)),
                       ((2, 3, 4), (4,)), ((3, 4), (2, 4, 2)), ((2, 3, 4), (2, 4, 2))]:
            cases.append(case("matmul", [operand(sa), operand(sb)], torch.matmul))
        cases.append(case("matmul_t", [operand((3, 5)), operand((2, 5))], lambda x, y: x @ y.T))
    # Complex prod, var and std over some dims, with a correction, of a
    # transposed operand and of a 0-dim one; var and std of a float8 into
    # one element and into several (PyTorch's two refusals).
    for dt in (torch.complex64, torch.complex128):
        x = torch.complex(torch.randn(3, 4, 5, generator=g, dtype=torch.float64), torch.randn(3, 4, 5, generator=g, dtype=torch.float64)).to(dt)
        xt = x.transpose(0, 2)
        for kind, dims, correction, keepdim in [
            ("prod", [1], None, False), ("prod", [0], None, True), ("prod", [2], None, False),
            ("var", [1], 1, False), ("var", [0, 2], 0, True), ("var", [2], 2.5, False), ("var", [0, 1, 2], 1, False),
            ("std", [1], 1, False), ("std", [0, 2], 0, True), ("std", [2], 4, False),
        ]:
            for t in (x, xt):
                cases.append(case("reduce", [t], lambda t, k=kind, d=dims, c=correction, kd=keepdim: reduced(t, k, d, c, kd),
                                  kind=kind, dims=dims, correction=correction, keepdim=keepdim))
        s = torch.tensor(1.5 - 2j, dtype=dt)
        for kind in ("prod", "var", "std"):
            cases.append(case("reduce", [s], lambda t, k=kind: reduced(t, k, [], 1, False), kind=kind, dims=[], correction=1, keepdim=False))
    for dt in (torch.float8_e4m3fn, torch.float8_e5m2fnuz):
        x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]]).to(dt)
        for kind, dims in [("var", [1]), ("std", [0]), ("var", [0, 1])]:
            cases.append(case("reduce", [x], lambda t, k=kind, d=dims: reduced(t, k, d, 1, False), kind=kind, dims=dims, correction=1, keepdim=False))
    # Printouts: scalars, wide values, summarised complex.
    for t in [
        torch.tensor(1 + 2j), torch.tensor([1e-5 + 1j, 3 - 1e5j]), torch.tensor([[1.5 + 0.5j, -2.0 - 0.25j], [0j, 1e3j]], dtype=torch.complex128),
        torch.tensor([float("nan") + 1j, complex(float("inf"), -1)]), torch.arange(2000, dtype=torch.float64).to(torch.complex64) * (1 + 1j),
        torch.tensor([2**64 - 1, 0], dtype=torch.uint64), torch.tensor([65535], dtype=torch.uint16),
        torch.tensor([0.5, -448.0, 3.0]).to(torch.float8_e4m3fn), torch.tensor([1e-3, 2.0]).to(torch.float8_e5m2),
        torch.tensor([[1, 2], [3, 4]], dtype=torch.uint32),
    ]:
        cases.append(case("repr", [t], repr))
    # Reductions of empty float8 tensors, which PyTorch fills without a
    # kernel (sum 0, prod 1, var and std NaN) or refuses (mean's division).
    def empty_reduced(t, kind, dims, keepdim):
        if kind in ("var", "std"):
            return reduced(t, kind, dims, 1, keepdim)
        f = {"sum": torch.sum, "prod": torch.prod, "mean": torch.mean}[kind]
        if kind == "prod":
            return f(t, dims[0], keepdim=keepdim) if dims else f(t)
        return f(t, dims, keepdim=keepdim) if dims else f(t)
    for dt in (torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fnuz):
        for shape, dims, keepdim in [((0,), [], False), ((2, 0), [1], False), ((2, 0), [1], True), ((0, 3), [1], False)]:
            for kind in ("sum", "prod", "mean", "var", "std"):
                t = torch.zeros(shape).to(dt)
                cases.append(case("reduce", [t], lambda t, k=kind, d=dims, kd=keepdim: empty_reduced(t, k, d, kd),
                                  kind=kind, dims=dims, correction=1, keepdim=keepdim))
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {OUT}: {len(cases)} cases, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
