"""Random cases of the generalized tensors, computed by PyTorch, for axial's
replay tests (`crates/axial-core/tests/generalized_*.rs`).

    bench/.venv/bin/python bench/generalized_cases.py

Writes crates/axial-core/tests/data/{quantized,sparse,nested}.json: each a
list of cases holding the inputs and PyTorch's outputs (or its error, or
what it computes where axial refuses the input: "pytorch_unsafe"). The seed
is fixed, so rerunning writes the same files.
"""

import json
import math
import random
import re
import warnings
from pathlib import Path

import numpy as np
import torch

warnings.filterwarnings("ignore")
torch.backends.quantized.engine = "x86"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates" / "axial-core" / "tests" / "data"
rng = random.Random(15)
QDTYPES = {"quint8": torch.quint8, "qint8": torch.qint8, "qint32": torch.qint32}
QRANGE = {"quint8": (0, 255), "qint8": (-128, 127), "qint32": (-(2**31), 2**31 - 1)}


def r32(v):
    """An f32 value as the shortest decimal that reads back as it (short JSON)."""
    x = np.float32(v)
    short = float(repr(x).replace("np.float32(", "").rstrip(")"))
    assert np.float32(short) == x or math.isnan(v), (v, short)
    return short


def f32(values):
    """f32 values as JSON can hold them: inf, -inf and nan as strings."""
    out = []
    for v in values:
        if math.isnan(v):
            out.append("nan")
        elif math.isinf(v):
            out.append("inf" if v > 0 else "-inf")
        else:
            out.append(r32(v))
    return out


def flat(t):
    if t.dtype == torch.float32:
        return f32(t.reshape(-1).tolist())
    return t.reshape(-1).tolist()


def gauss(mu, sigma):
    """A normal sample, rounded to f32."""
    return r32(rng.gauss(mu, sigma))


def error(f):
    try:
        f()
    except Exception as e:  # the first line of PyTorch's message
        return str(e).strip().split("\n")[0]
    return None


def shape(max_rank=3, max_numel=24):
    while True:
        s = [rng.randint(1, 5) for _ in range(rng.randint(1, max_rank))]
        if math.prod(s) <= max_numel:
            return s


def floats(n, spread, scale=None):
    """Random floats, with half-way points of `scale` mixed in."""
    out = []
    for _ in range(n):
        r = rng.random()
        if scale and r < 0.25:
            out.append((rng.randint(-300, 300) + 0.5) * scale)
        elif r < 0.3:
            out.append(rng.choice([0.0, -0.0, 1.0, -1.0]))
        else:
            out.append(rng.gauss(0, spread))
    return [r32(v) for v in out]


# --- quantized -------------------------------------------------------------

def q_per_tensor():
    name = rng.choice(list(QDTYPES))
    s = shape()
    scale = 10 ** rng.uniform(-3, 1)
    lo, hi = QRANGE[name]
    zp = rng.randint(lo, hi) if name != "qint32" else rng.randint(-1000, 1000)
    x = floats(math.prod(s), 200 * scale, scale)
    if rng.random() < 0.1:
        x[rng.randrange(len(x))] = rng.choice([math.inf, -math.inf, 3e9, -3e9])
    case = {"op": "per_tensor", "dtype": name, "shape": s, "x": f32(x), "scale": scale, "zero_point": zp}
    q = torch.quantize_per_tensor(torch.tensor(x).view(s), scale, zp, QDTYPES[name])
    case["int_repr"] = flat(q.int_repr())
    case["dequantize"] = flat(q.dequantize())
    # PyTorch's `int32(q) - zero_point` wraps where it overflows int32;
    # the exact value: f32(scale) * f32(q - zero_point).
    exact = f32([np.float32(scale) * np.float32(v - zp) for v in case["int_repr"]])
    if exact != case["dequantize"]:
        case["dequantize_pytorch_wraps"] = case["dequantize"]
        case["dequantize"] = exact
    return case


def q_per_channel():
    name = rng.choice(list(QDTYPES))
    s = shape()
    axis = rng.randrange(len(s))
    c = s[axis]
    scales = [10 ** rng.uniform(-3, 1) for _ in range(c)]
    lo, hi = QRANGE[name]
    zps = [rng.randint(lo, hi) if name != "qint32" else rng.randint(-1000, 1000) for _ in range(c)]
    x = floats(math.prod(s), 100 * scales[0], scales[0])
    case = {"op": "per_channel", "dtype": name, "shape": s, "x": f32(x), "scales": scales, "zero_points": zps, "axis": axis}
    q = torch.quantize_per_channel(torch.tensor(x).view(s), torch.tensor(scales, dtype=torch.float64),
                                   torch.tensor(zps), axis, QDTYPES[name])
    case["int_repr"] = flat(q.int_repr())
    case["dequantize"] = flat(q.dequantize())
    return case


def q_linear():
    m, k, n = rng.randint(1, 6), rng.randint(1, 40), rng.randint(1, 20)
    x = [gauss(0, 1) for _ in range(m * k)]
    w = [gauss(0, 0.5) for _ in range(n * k)]
    bias = [gauss(0, 1) for _ in range(n)] if rng.random() < 0.7 else None
    sx, zx = 10 ** rng.uniform(-2.5, -1), rng.randint(0, 255)
    per_channel = rng.random() < 0.5
    symmetric = rng.random() < 0.5
    if per_channel:
        sw = [10 ** rng.uniform(-3, -1.5) for _ in range(n)]
        zw = [0 if symmetric else rng.randint(-20, 20) for _ in range(n)]
    else:
        sw, zw = 10 ** rng.uniform(-3, -1.5), (0 if symmetric else rng.randint(-20, 20))
    so, zo = 10 ** rng.uniform(-2, 0), rng.randint(0, 255)
    relu = rng.random() < 0.3
    qx = torch.quantize_per_tensor(torch.tensor(x).view(m, k), sx, zx, torch.quint8)
    wt = torch.tensor(w).view(n, k)
    if per_channel:
        qw = torch.quantize_per_channel(wt, torch.tensor(sw, dtype=torch.float64), torch.tensor(zw), 0, torch.qint8)
    else:
        qw = torch.quantize_per_tensor(wt, sw, zw, torch.qint8)
    b = torch.tensor(bias) if bias is not None else None
    packed = torch.ops.quantized.linear_prepack(qw, b)
    f = torch.ops.quantized.linear_relu if relu else torch.ops.quantized.linear
    y = f(qx, packed, so, zo)
    return {"op": "linear", "m": m, "k": k, "n": n, "x": x, "w": w, "bias": bias,
            "x_scale": sx, "x_zero_point": zx, "w_per_channel": per_channel, "w_scale": sw, "w_zero_point": zw,
            "out_scale": so, "out_zero_point": zo, "relu": relu,
            "xq": flat(qx.int_repr()), "wq": flat(qw.int_repr()), "int_repr": flat(y.int_repr())}


def q_matmul():
    m, k, n = rng.randint(1, 5), rng.randint(1, 8), rng.randint(1, 5)
    name = rng.choice(["quint8", "qint8"])
    lo, hi = QRANGE[name]
    a = [gauss(0, 1) for _ in range(m * k)]
    b = [gauss(0, 1) for _ in range(k * n)]
    sa, za, sb, zb = 10 ** rng.uniform(-2, -1), rng.randint(lo, hi), 10 ** rng.uniform(-2, -1), rng.randint(lo, hi)
    so, zo = 10 ** rng.uniform(-1.5, 0), rng.randint(lo, hi)
    qa = torch.quantize_per_tensor(torch.tensor(a).view(m, k), sa, za, QDTYPES[name])
    qb = torch.quantize_per_tensor(torch.tensor(b).view(k, n), sb, zb, QDTYPES[name])
    y = torch.ops.quantized.matmul(qa, qb, so, zo)
    return {"op": "matmul", "dtype": name, "m": m, "k": k, "n": n, "a": a, "b": b, "a_scale": sa, "a_zero_point": za,
            "b_scale": sb, "b_zero_point": zb, "out_scale": so, "out_zero_point": zo, "int_repr": flat(y.int_repr())}


def q_unsafe():
    """What PyTorch quantizes where axial refuses: a scale <= 0, or a NaN."""
    name = rng.choice(list(QDTYPES))
    x = floats(6, 1.0)
    if rng.random() < 0.5:
        scale = rng.choice([0.0, -0.1, -1.0])
    else:
        scale = 0.1
        x[rng.randrange(6)] = math.nan
    q = torch.quantize_per_tensor(torch.tensor(x), scale, 0, QDTYPES[name])
    return {"op": "per_tensor", "dtype": name, "shape": [6], "x": f32(x), "scale": scale, "zero_point": 0,
            "pytorch_unsafe": flat(q.int_repr())}


def q_errors():
    cases = []
    x = torch.tensor([[-1.0, 0.0, 0.5], [1.0, 2.0, 3.0]])
    for name, zp in [("quint8", 256), ("qint8", -129), ("qint32", 2**31), ("quint8", -1)]:
        cases.append({"op": "per_tensor", "dtype": name, "shape": [2, 3], "x": flat(x), "scale": 0.1, "zero_point": zp,
                      "error": error(lambda: torch.quantize_per_tensor(x, 0.1, zp, QDTYPES[name]))})
    for axis, scales, zps in [(2, [0.1, 0.5], [0, 0]), (1, [0.1, 0.5], [0, 0]), (0, [0.1, 0.5], [0, 0, 0]),
                              (0, [0.1, 0.5], [0, 300])]:
        e = error(lambda: torch.quantize_per_channel(x, torch.tensor(scales, dtype=torch.float64), torch.tensor(zps),
                                                     axis, torch.quint8))
        cases.append({"op": "per_channel", "dtype": "quint8", "shape": [2, 3], "x": flat(x), "scales": scales,
                      "zero_points": zps, "axis": axis, "error": e})
    return cases


# Integers quantized already, and their dequantization, from their own
# generator so that the cases above stay as they were.
rng_q = random.Random(27)


def q_from_int_repr():
    """`_make_per_{tensor,channel}_quantized_tensor` over random integers,
    qint32 ones near the ends of the range with zero points far from 0:
    PyTorch's per-tensor `q - zero_point` wraps in int32 there (recorded as
    `dequantize_pytorch_wraps`; axial computes it exactly, as PyTorch's
    per-channel path does)."""
    name = rng_q.choice(list(QDTYPES))
    lo, hi = QRANGE[name]
    s = [rng_q.randint(1, 4) for _ in range(rng_q.randint(1, 3))]
    n = math.prod(s)
    if name == "qint32" and rng_q.random() < 0.5:
        ints = [rng_q.choice([lo, lo + 1, hi - 1, hi, rng_q.randint(lo, hi)]) for _ in range(n)]
    else:
        ints = [rng_q.randint(lo, hi) for _ in range(n)]
    repr_dtype = {"quint8": torch.uint8, "qint8": torch.int8, "qint32": torch.int32}[name]
    t = torch.tensor(ints, dtype=repr_dtype).view(s)
    wide = 10**6 if name == "qint32" else 0
    zp_range = (lo, hi) if not wide else (-wide, wide)
    if rng_q.random() < 0.5:
        scale = 10 ** rng_q.uniform(-3, 0)
        zp = rng_q.randint(*zp_range)
        q = torch._make_per_tensor_quantized_tensor(t, scale, zp)
        case = {"op": "from_int_repr", "dtype": name, "shape": s, "ints": ints, "scale": scale, "zero_point": zp,
                "dequantize": flat(q.dequantize())}
        exact = f32([np.float32(scale) * np.float32(v - zp) for v in ints])
        if exact != case["dequantize"]:
            case["dequantize_pytorch_wraps"] = case["dequantize"]
            case["dequantize"] = exact
        return case
    axis = rng_q.randrange(len(s))
    scales = [10 ** rng_q.uniform(-3, 0) for _ in range(s[axis])]
    zps = [rng_q.randint(*zp_range) for _ in range(s[axis])]
    q = torch._make_per_channel_quantized_tensor(t, torch.tensor(scales, dtype=torch.float64), torch.tensor(zps), axis)
    return {"op": "from_int_repr_per_channel", "dtype": name, "shape": s, "ints": ints, "scales": scales,
            "zero_points": zps, "axis": axis, "dequantize": flat(q.dequantize())}


def quantized():
    cases = []
    for _ in range(120):
        cases.append(q_per_tensor())
    for _ in range(80):
        cases.append(q_per_channel())
    for _ in range(60):
        cases.append(q_linear())
    for _ in range(20):
        cases.append(q_matmul())
    for _ in range(12):
        cases.append(q_unsafe())
    cases += q_errors()
    cases += [q_from_int_repr() for _ in range(80)]
    return cases


# --- sparse ----------------------------------------------------------------

def coo_parts(sparse_dims, dense_dims, nnz, duplicates=True):
    size = [rng.randint(1, 5) for _ in range(sparse_dims)] + [rng.randint(1, 3) for _ in range(dense_dims)]
    idx = [[rng.randrange(size[d]) for _ in range(nnz)] for d in range(sparse_dims)]
    if duplicates and nnz > 1 and rng.random() < 0.5:
        j = rng.randrange(1, nnz)
        for d in range(sparse_dims):
            idx[d][j] = idx[d][0]
    vshape = [nnz] + size[sparse_dims:]
    values = [float(rng.randint(-8, 8)) for _ in range(math.prod(vshape))]  # exact sums
    return size, idx, vshape, values


def coo(size, idx, vshape, values):
    return torch.sparse_coo_tensor(torch.tensor(idx, dtype=torch.int64).view(len(idx), -1),
                                   torch.tensor(values).view(vshape), size)


def s_structure():
    sd, dd = rng.choice([(1, 0), (2, 0), (2, 0), (3, 0), (1, 1), (2, 1)])
    nnz = rng.randint(0, 8)
    size, idx, vshape, values = coo_parts(sd, dd, nnz)
    s = coo(size, idx, vshape, values)
    c = s.coalesce()
    case = {"op": "structure", "size": size, "indices": idx, "values_shape": vshape, "values": values,
            "is_coalesced": s.is_coalesced(), "nnz": s._nnz(),
            "coalesced_indices": c.indices().tolist(), "coalesced_values": flat(c.values()),
            "dense": flat(s.to_dense())}
    if sd == 2 and dd == 0:
        r = s.to_sparse_csr()
        case["crow"] = r.crow_indices().tolist()
        case["col"] = r.col_indices().tolist()
        case["csr_values"] = flat(r.values())
        t = s.t()
        case["t_indices"] = t._indices().tolist()
        case["t_coalesced"] = t.is_coalesced()
    return case


def s_add():
    sd, dd = rng.choice([(1, 0), (2, 0), (2, 0), (2, 1)])
    size, ia, vshape_a, va = coo_parts(sd, dd, rng.randint(0, 6))
    nb = rng.randint(0, 6)
    ib = [[rng.randrange(size[d]) for _ in range(nb)] for d in range(sd)]
    vshape_b = [nb] + size[sd:]
    vb = [float(rng.randint(-8, 8)) for _ in range(math.prod(vshape_b))]
    coalesce_a, coalesce_b = rng.random() < 0.4, rng.random() < 0.4
    a, b = coo(size, ia, vshape_a, va), coo(size, ib, vshape_b, vb)
    if coalesce_a:
        a = a.coalesce()
    if coalesce_b:
        b = b.coalesce()
    r = a + b
    return {"op": "add", "size": size,
            "a_indices": a._indices().tolist(), "a_values_shape": list(a._values().shape), "a_values": flat(a._values()),
            "a_coalesced": a.is_coalesced(),
            "b_indices": b._indices().tolist(), "b_values_shape": list(b._values().shape), "b_values": flat(b._values()),
            "b_coalesced": b.is_coalesced(),
            "indices": r._indices().tolist(), "values": flat(r._values()), "is_coalesced": r.is_coalesced(),
            "dense": flat(r.to_dense())}


def s_mm():
    rows, cols, n = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 5)
    nnz = rng.randint(0, 10)
    idx = [[rng.randrange(rows) for _ in range(nnz)], [rng.randrange(cols) for _ in range(nnz)]]
    values = [gauss(0, 1) for _ in range(nnz)]
    d = [gauss(0, 1) for _ in range(cols * n)]
    vector = rng.random() < 0.2
    s = coo([rows, cols], idx, [nnz], values)
    dense = torch.tensor(d).view(cols, n)
    if vector:
        dense = dense[:, 0].contiguous()
        d = flat(dense)
    y = torch.sparse.mm(s, dense) if not vector else s @ dense
    ycsr = s.to_sparse_csr() @ dense
    return {"op": "mm", "size": [rows, cols], "indices": idx, "values": values, "dense_shape": list(dense.shape),
            "dense": d, "out": flat(y), "out_csr": flat(ycsr)}


def s_to_sparse():
    s = shape(3, 16)
    x = [rng.choice([0.0, 0.0, -0.0, float(rng.randint(-5, 5))]) for _ in range(math.prod(s))]
    sd = rng.randint(1, len(s))
    t = torch.tensor(x).view(s).to_sparse(sd)
    return {"op": "to_sparse", "shape": s, "x": x, "sparse_dim": sd, "indices": t.indices().tolist(),
            "values": flat(t.values()), "values_shape": list(t.values().shape)}


def s_scalar():
    size, idx, vshape, values = coo_parts(2, 0, rng.randint(1, 6))
    k = float(rng.choice([2, -3, 0.5]))
    r = coo(size, idx, vshape, values) * k
    return {"op": "scalar", "size": size, "indices": idx, "values": values, "scalar": k,
            "out_values": flat(r._values()), "is_coalesced": r.is_coalesced()}


def s_invalid():
    size = [rng.randint(1, 4), rng.randint(1, 4)]
    nnz = rng.randint(1, 4)
    idx = [[rng.randrange(size[d]) for _ in range(nnz)] for d in range(2)]
    d = rng.randrange(2)
    idx[d][rng.randrange(nnz)] = rng.choice([size[d], size[d] + 3, -1, -2])
    values = [1.0] * nnz
    e = error(lambda: torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor(values), size, check_invariants=True))
    unchecked = error(lambda: torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor(values), size)._nnz())
    return {"op": "invalid", "size": size, "indices": idx, "values": values, "error": e,
            "pytorch_accepts_unchecked": unchecked is None}


def s_csr_invalid():
    cases = []
    sct = torch.sparse_csr_tensor
    T = torch.tensor
    for crow, col, vals, size in [([0, 1, 3], [0, 1], [1., 2.], (2, 2)), ([1, 1, 2], [0, 1], [1., 2.], (2, 2)),
                                  ([0, 2, 1, 3], [0, 1, 0], [1., 2., 3.], (3, 2)), ([0, 1, 2], [0, 1], [1., 2.], (3, 2)),
                                  ([0, 1, 2], [0, 5], [1., 2.], (2, 2)), ([0, 2, 2], [1, 0], [1., 2.], (2, 2)),
                                  ([0, 2, 2], [1, 1], [1., 2.], (2, 2)), ([0, 1, 2], [0, 1], [1., 2., 3.], (2, 2)),
                                  ([0, 1, 2], [0, -1], [1., 2.], (2, 2)), ([0, 1, 2], [0, 1], [1., 2.], (2,))]:
        e = error(lambda: sct(T(crow), T(col), T(vals), size, check_invariants=True))
        cases.append({"op": "csr_invalid", "crow": crow, "col": col, "values": vals, "size": list(size), "error": e})
    return cases


# Hybrid tensors (values with dense dims) times dense matrices, from their
# own generator so that the cases above stay as they were.
rng_h = random.Random(28)


def s_hybrid_mm():
    """A hybrid matrix, rows sparse and columns dense (values of rank 2),
    times a dense matrix or vector: `torch.sparse.mm` refuses it; the oracle
    is PyTorch's product of the same matrix made dense. Integer values, so
    every sum is exact in any order."""
    rows, cols, n = rng_h.randint(1, 6), rng_h.randint(1, 5), rng_h.randint(1, 4)
    nnz = rng_h.randint(0, 7)
    idx = [[rng_h.randrange(rows) for _ in range(nnz)]]
    values = [float(rng_h.randint(-8, 8)) for _ in range(nnz * cols)]
    vector = rng_h.random() < 0.25
    d = [float(rng_h.randint(-8, 8)) for _ in range(cols * (1 if vector else n))]
    s = torch.sparse_coo_tensor(torch.tensor(idx, dtype=torch.int64).view(1, nnz), torch.tensor(values).view(nnz, cols),
                                (rows, cols))
    dense = torch.tensor(d).view(cols) if vector else torch.tensor(d).view(cols, n)
    c = s.coalesce()
    return {"op": "hybrid_mm", "size": [rows, cols], "indices": idx, "values": values,
            "dense_shape": list(dense.shape), "dense": d, "to_dense": flat(s.to_dense()),
            "coalesced_indices": c.indices().tolist(), "coalesced_values": flat(c.values()),
            "out": flat(s.to_dense() @ dense), "pytorch_refuses": error(lambda: torch.sparse.mm(s, dense))}


def sparse():
    cases = []
    for _ in range(80):
        cases.append(s_structure())
    for _ in range(60):
        cases.append(s_add())
    for _ in range(60):
        cases.append(s_mm())
    for _ in range(30):
        cases.append(s_to_sparse())
    for _ in range(20):
        cases.append(s_scalar())
    for _ in range(20):
        cases.append(s_invalid())
    cases += s_csr_invalid()
    cases += [s_hybrid_mm() for _ in range(60)]
    return cases


# --- nested ----------------------------------------------------------------

def nested_case():
    b = rng.randint(1, 4)
    rest = [rng.randint(1, 3) for _ in range(rng.choice([0, 1, 1, 2]))]
    lengths = [rng.randint(0 if rng.random() < 0.15 else 1, 5) for _ in range(b)]
    if all(length == 0 for length in lengths):
        lengths[0] = 1
    items = [[gauss(0, 2) for _ in range(length * math.prod(rest))] for length in lengths]
    ts = [torch.tensor(v).view([length] + rest) for v, length in zip(items, lengths)]
    nj = torch.nested.nested_tensor(ts, layout=torch.jagged)
    case = {"op": "nested", "rest": rest, "lengths": lengths, "items": items,
            "offsets": nj.offsets().tolist()}
    pad = rng.choice([0.0, -1.0])
    case["pad"] = pad
    case["padded"] = flat(nj.to_padded_tensor(pad))
    case["padded_shape"] = list(nj.to_padded_tensor(pad).shape)
    if not rest:
        return case  # 1-D items: reductions over dim 1 leave (B,), kept simple below
    case["sum"] = flat(nj.sum(dim=1))
    case["mean"] = flat(nj.mean(dim=1))
    if 0 in lengths:
        case["amax_pytorch_unsafe"] = flat(nj.amax(dim=1))
    else:
        case["amax"] = flat(nj.amax(dim=1))
        case["argmax"] = flat(nj.max(dim=1).indices)
    case["softmax"] = flat(torch.softmax(nj, dim=1).values())
    case["softmax_last"] = flat(torch.softmax(nj, dim=-1).values())
    case["sum_last"] = flat(nj.sum(dim=-1).values())
    d = rest[-1]
    w_n = rng.randint(1, 3)
    w = [gauss(0, 1) for _ in range(d * w_n)]
    case["weight"] = w
    case["weight_shape"] = [d, w_n]
    case["matmul"] = flat((nj @ torch.tensor(w).view(d, w_n)).values())
    row = [gauss(0, 1) for _ in range(d)]
    case["row"] = row
    case["plus_row"] = flat((nj + torch.tensor(row)).values())
    case["relu"] = flat(torch.relu(nj).values())
    case["times_self"] = flat((nj * nj).values())
    return case


def nested_errors():
    cases = []
    a, b = torch.ones(2, 3), torch.ones(3, 4)
    cases.append({"op": "nested_error", "shapes": [[2, 3], [3, 4]],
                  "error": error(lambda: torch.nested.nested_tensor([a, b], layout=torch.jagged))})
    cases.append({"op": "nested_error", "shapes": [[2, 3], [3]],
                  "error": error(lambda: torch.nested.nested_tensor([a, torch.ones(3)], layout=torch.jagged))})
    cases.append({"op": "nested_error", "shapes": [],
                  "error": error(lambda: torch.nested.nested_tensor([], layout=torch.jagged))})
    nj = torch.nested.nested_tensor([a, torch.ones(4, 3)], layout=torch.jagged)
    cases.append({"op": "nested_reduce_error", "dim": 0, "error": error(lambda: nj.sum(dim=0))})
    cases.append({"op": "nested_softmax_error", "dim": 0, "error": error(lambda: torch.softmax(nj, dim=0))})
    cases.append({"op": "nested_padded_truncates", "lengths": [2, 4], "output_size": [2, 2, 3],
                  "pytorch_unsafe": list(torch.nested.to_padded_tensor(nj, 0.0, output_size=(2, 2, 3)).shape)})
    return cases


# Transposes and products draw from their own generator, so that the cases
# above stay as they were.
rng_t = random.Random(26)


def t_gauss(mu, sigma):
    return r32(rng_t.gauss(mu, sigma))


def t_items(lengths, rest):
    return [[t_gauss(0, 1) for _ in range(n * math.prod(rest))] for n in lengths]


def t_lengths(b):
    lengths = [rng_t.randint(0 if rng_t.random() < 0.15 else 1, 5) for _ in range(b)]
    if all(n == 0 for n in lengths):
        lengths[0] = 1
    return lengths


def jagged(items, lengths, rest):
    ts = [torch.tensor(v).view([n] + rest) for v, n in zip(items, lengths)]
    return torch.nested.nested_tensor(ts, layout=torch.jagged)


def nested_shape(t):
    """The nested sizes with the ragged ones as None."""
    return [None if not isinstance(n, int) else n for n in t.shape]


def item_values(t):
    return [flat(x.contiguous()) for x in t.unbind()]


def nested_transpose():
    """A jagged tensor (B, j, rest...) transposed, and ops on the result."""
    b = rng_t.randint(1, 4)
    rest = [rng_t.randint(1, 3) for _ in range(rng_t.choice([1, 1, 2]))]
    lengths = t_lengths(b)
    items = t_items(lengths, rest)
    nj = jagged(items, lengths, rest)
    rank = 2 + len(rest)
    d0, d1 = rng_t.sample(range(1, rank), 2)
    t = nj.transpose(d0, d1)
    case = {"op": "nested_transpose", "rest": rest, "lengths": lengths, "items": items, "dims": [d0, d1],
            "ragged_idx": t._ragged_idx, "shape": nested_shape(t), "values_shape": list(t.values().shape),
            "values": flat(t.values().contiguous()), "repr": re.sub(r"j[0-9]+", "j1", repr(t)),
            "unbind": item_values(t),
            "padded": flat(t.to_padded_tensor(0.0))}
    r = t._ragged_idx
    case["sum_ragged"] = flat(t.sum(dim=r))
    if 0 not in lengths:
        case["amax_ragged"] = flat(t.amax(dim=r))
    fixed = [d for d in range(1, rank) if d != r]
    f = rng_t.choice(fixed)
    case["fixed_dim"] = f
    s = t.sum(dim=f)
    case["sum_fixed"] = {"ragged_idx": s._ragged_idx, "values": flat(s.values().contiguous())}
    case["softmax_fixed"] = flat(torch.softmax(t, dim=f).values().contiguous())
    case["relu"] = flat(torch.relu(t).values().contiguous())
    case["times_two"] = flat((t * 2).values().contiguous())
    case["back"] = flat(t.transpose(d0, d1).values().contiguous())
    return case


def strided(items, lengths, shape_of):
    return torch.nested.nested_tensor([torch.tensor(v).view(shape_of(n)) for v, n in zip(items, lengths)])


def nested_product():
    """Attention over a ragged batch: q @ k^T, softmax, @ v, item by item
    (PyTorch's strided nested tensors compute it; its jagged layout refuses
    the first product), and the product over the ragged dim (jagged)."""
    b = rng_t.randint(1, 4)
    heads = rng_t.choice([None, None, 2])
    d, e = rng_t.randint(1, 4), rng_t.randint(1, 4)
    lengths = t_lengths(b)
    lead = [] if heads is None else [heads]

    def per(n, last):
        return lead + [n, last]

    def data(last):
        return [[t_gauss(0, 1) for _ in range(math.prod(per(n, last)))] for n in lengths]

    q, k, v = data(d), data(d), data(e)
    sq, sk, sv = (strided(x, lengths, lambda n, w=w: per(n, w)) for x, w in ((q, d), (k, d), (v, e)))
    scores = sq @ sk.transpose(-1, -2)
    probs = torch.softmax(scores, dim=-1)
    out = probs @ sv
    case = {"op": "nested_product", "lengths": lengths, "heads": heads, "d": d, "e": e, "q": q, "k": k, "v": v,
            "scores": item_values(scores), "probs": item_values(probs),
            "probs_rows": item_values(torch.softmax(scores, dim=-2)), "out": item_values(out)}
    if heads is None:
        # The same in PyTorch's jagged layout: it refuses q @ k^T (one ragged
        # dim), and computes k^T @ v, summed over the ragged dim, dense.
        jq = jagged(q, lengths, [d])
        jk, jv = (torch.nested.nested_tensor_from_jagged(jagged(x, lengths, [w]).values(), jq.offsets())
                  for x, w in ((k, d), (v, e)))
        refused = error(lambda: jq @ jk.transpose(1, 2))
        case["jagged_refuses"] = re.sub(r"j[0-9]+", "j1", refused)
        case["kt_v"] = flat(jk.transpose(1, 2) @ jv)
    return case


def nested_transpose_errors():
    nj = torch.nested.nested_tensor([torch.ones(2, 3), torch.ones(4, 3)], layout=torch.jagged)
    return [{"op": "nested_transpose_error", "dims": [0, 1], "error": error(lambda: nj.transpose(0, 1))},
            {"op": "nested_softmax_ragged_idx", "pytorch_refuses": error(lambda: torch.softmax(nj.transpose(1, 2), dim=2))}]


def nested():
    cases = [nested_case() for _ in range(220)]
    cases += nested_errors()
    cases += [nested_transpose() for _ in range(60)]
    cases += [nested_product() for _ in range(60)]
    return cases + nested_transpose_errors()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in [("quantized", quantized), ("sparse", sparse), ("nested", nested)]:
        cases = make()
        meta = {"generator": "bench/generalized_cases.py", "torch": torch.__version__, "engine": "x86"}
        text = json.dumps({"meta": meta, "cases": cases}, separators=(",", ":"))
        (OUT / f"{name}.json").write_text(text + "\n")
        print(f"{name}: {len(cases)} cases, {len(text) // 1024} KiB")


if __name__ == "__main__":
    main()
