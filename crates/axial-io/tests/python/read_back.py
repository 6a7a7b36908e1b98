"""Reads back the files tests/python_roundtrip.rs wrote with axial, with the
reference libraries, and checks what each holds (values, dtypes, shapes,
strides and shared storages). Usage: read_back.py DIR; prints one line per
format and exits non-zero on the first mismatch."""
import sys
import warnings

import h5py
import numpy as np
import torch
from safetensors.torch import load_file
from safetensors import safe_open

warnings.filterwarnings("error")  # torch.load warns on what it dislikes
d = sys.argv[1]


def check(cond, what):
    if not cond:
        raise SystemExit(f"mismatch: {what}")


# safetensors: every dtype, metadata
st = load_file(f"{d}/all.safetensors")
for name, dtype in [("f32", torch.float32), ("f64", torch.float64), ("f16", torch.float16), ("bf16", torch.bfloat16),
                    ("i64", torch.int64), ("i32", torch.int32), ("i16", torch.int16), ("i8", torch.int8),
                    ("u8", torch.uint8), ("bool", torch.bool)]:
    t = st[name]
    check(t.dtype == dtype and t.shape == (2, 3), f"safetensors {name}: {t.dtype} {tuple(t.shape)}")
    check(t.tolist() == torch.arange(6).view(2, 3).to(dtype).tolist(), f"safetensors {name} values")
check(st["transposed"].tolist() == torch.arange(6.).view(2, 3).t().tolist(), "safetensors transposed")
with safe_open(f"{d}/all.safetensors", "pt") as f:
    check(f.metadata() == {"format": "pt", "epoch": "10"}, f"safetensors metadata {f.metadata()}")
print("safetensors: ok")

# torch: weights_only=True, shared storages kept, values
ck = torch.load(f"{d}/chapter.pt", weights_only=True)
check(set(ck) == {"model_weights", "epoch", "learning_rate", "views", "param", "meta"}, f"torch keys {list(ck)}")
check(ck["epoch"] == 10 and ck["learning_rate"] == 1e-3, "torch scalars")
check(ck["model_weights"].shape == (4, 4) and ck["model_weights"].dtype == torch.float32, "torch weights")
check(ck["model_weights"].flatten().tolist() == [float(i) / 8 for i in range(16)], "torch weights values")
v = ck["views"]
ptr = v["base"].untyped_storage().data_ptr()
check(all(v[k].untyped_storage().data_ptr() == ptr for k in ("t", "w")), "torch views share one storage")
check(v["t"].stride() == (1, 4) and v["w"].storage_offset() == 5 and v["w"].stride() == (4, 1), "torch view layouts")
check(v["w"].tolist() == [[5.0, 6.0], [9.0, 10.0]], "torch window values")
v["base"][0, 0] = 100.0
check(v["t"][0, 0].item() == 100.0, "a write through base shows in t")
check(isinstance(ck["param"], torch.nn.Parameter) and ck["param"].requires_grad, "torch parameter")
check(ck["param"].dtype == torch.bfloat16 and ck["param"].tolist() == [0.0, 1.0, 2.0], "torch parameter values")
m = ck["meta"]
check(m["name"] == "demo" and m["big"] == 2 ** 40 and m["huge"] == 2 ** 70 and m["neg"] == -5, f"torch ints {m}")
check(m["tuple"] == (0.5, None, True) and m["blob"] == b"\x00\xffab" and m["size"] == torch.Size([2, 3]), "torch values")
check(m["dtype"] is torch.float16 and m["list"] == [1, "two"], "torch dtype and list")
check(type(m["sd"]).__name__ == "OrderedDict" and list(m["sd"]) == ["fc.weight"], "torch OrderedDict")
mm = torch.load(f"{d}/chapter.pt", weights_only=True, mmap=True)
check(mm["views"]["t"].untyped_storage().data_ptr() == mm["views"]["base"].untyped_storage().data_ptr(), "torch mmap views")
print("torch: ok")

# npy / npz
for name, dtype in [("f2", "<f2"), ("f4", "<f4"), ("f8", "<f8"), ("i1", "|i1"), ("i2", "<i2"), ("i4", "<i4"),
                    ("i8", "<i8"), ("u1", "|u1"), ("b1", "|b1")]:
    a = np.load(f"{d}/{name}.npy")
    check(a.dtype.str == dtype and a.shape == (2, 3), f"npy {name}: {a.dtype.str} {a.shape}")
    check((a == np.arange(6).reshape(2, 3).astype(dtype)).all(), f"npy {name} values")
f = np.load(f"{d}/fortran.npy")
check(f.shape == (3, 2) and f.flags["F_CONTIGUOUS"] and (f == np.arange(6, dtype="<f4").reshape(2, 3).T).all(), "npy fortran")
check(np.load(f"{d}/scalar.npy").shape == () and np.load(f"{d}/empty.npy").shape == (0, 3), "npy scalar and empty")
for name in ("stored", "compressed"):
    with np.load(f"{d}/{name}.npz") as z:
        check(sorted(z.files) == ["features", "labels", "mask"], f"npz {name} files {z.files}")
        check((z["features"] == np.arange(6, dtype="<f4").reshape(2, 3)).all(), f"npz {name} features")
        check(z["labels"].tolist() == [1, -2] and z["mask"].tolist() == [True, False], f"npz {name} values")
print("npy/npz: ok")

# HDF5: contiguous and chunked/compressed datasets, groups, attributes
with h5py.File(f"{d}/data.h5", "r") as h:
    feats = h["features"]
    check(feats.dtype == np.int64 and feats.shape == (10, 10), "h5 features")
    check(feats[2:5, :].tolist() == np.arange(100).reshape(10, 10)[2:5].tolist(), "h5 features rows 2..5")
    big = h["big"]
    check(big.chunks == (100, 1000) and big.compression == "gzip" and big.shuffle, f"h5 big {big.chunks} {big.compression}")
    check((big[()] == np.arange(1_000_000, dtype="<f4").reshape(1000, 1000)).all(), "h5 big values")
    check(h["model/encoder/weight"][()].tolist() == np.eye(3, dtype="<f4").tolist(), "h5 nested")
    check(h["mask"].dtype == np.bool_ and h["mask"][()].tolist() == [True, False, True], "h5 bool")
    w = h["model/encoder/weight"]
    check(w.attrs["scale"] == 0.5 and w.attrs["units"] in (b"m/s", "m/s") and list(w.attrs["ids"]) == [1, 2], f"h5 attrs {dict(w.attrs)}")
    check(h["model"].attrs["version"] == 3 and h.attrs["title"] in (b"axial", "axial"), "h5 group and root attrs")
print("hdf5: ok")

# The dtypes with few kernels: uint16/32/64, complex64/128, the float8s
grid = torch.arange(6).view(2, 3)
cgrid = torch.complex(grid.double(), -grid.double() / 2)
new = {"u16": torch.uint16, "u32": torch.uint32, "u64": torch.uint64, "f8e4m3fn": torch.float8_e4m3fn,
       "f8e5m2": torch.float8_e5m2, "f8e4m3fnuz": torch.float8_e4m3fnuz, "f8e5m2fnuz": torch.float8_e5m2fnuz}


def same(t, dtype, what):
    want = cgrid.to(dtype) if dtype.is_complex else grid.to(dtype)
    check(t.dtype == dtype and t.shape == (2, 3), f"{what}: {t.dtype} {tuple(t.shape)}")
    check(torch.equal(t.to(torch.complex128 if dtype.is_complex else torch.float64),
                      want.to(torch.complex128 if dtype.is_complex else torch.float64)), f"{what} values")


st = load_file(f"{d}/new.safetensors")
check(set(st) == set(new) | {"c64"}, f"new safetensors keys {sorted(st)}")
for k, dtype in [*new.items(), ("c64", torch.complex64)]:
    same(st[k], dtype, f"safetensors {k}")
ck = torch.load(f"{d}/new.pt", weights_only=True)
for k, dtype in [*new.items(), ("c64", torch.complex64), ("c128", torch.complex128)]:
    same(ck[k], dtype, f"torch {k}")
t = ck["u16_t"]
check(t.dtype == torch.uint16 and t.stride() == (1, 3) and t.untyped_storage().data_ptr() == ck["u16"].untyped_storage().data_ptr()
      and torch.equal(t.long(), grid.t()), "torch u16 transposed view of u16")
for name, dtype in [("u2", "<u2"), ("u4", "<u4"), ("u8", "<u8"), ("c8", "<c8"), ("c16", "<c16")]:
    a = np.load(f"{d}/new_{name}.npy")
    want = (np.arange(6) - 0.5j * np.arange(6)) if dtype[1] == "c" else np.arange(6)
    check(a.dtype.str == dtype and a.shape == (2, 3) and (a == want.reshape(2, 3).astype(dtype)).all(), f"npy new {name}: {a.dtype.str} {a}")
with h5py.File(f"{d}/new.h5", "r") as h:
    for k, dtype in [("u16", "<u2"), ("u32", "<u4"), ("u64", "<u8")]:
        check(h[k].dtype.str == dtype and (h[k][()] == np.arange(6).reshape(2, 3)).all(), f"h5 {k}")
    for k, dtype in [("c64", "<c8"), ("c128", "<c16")]:
        want = (np.arange(6) - 0.5j * np.arange(6)).reshape(2, 3)
        check(h[k].dtype.str == dtype and h[k].chunks == (1, 3) and (h[k][()] == want).all(), f"h5 {k}: {h[k].dtype} {h[k][()]}")
print("new dtypes: ok")
