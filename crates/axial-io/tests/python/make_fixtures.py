"""Writes the fixtures of the reader tests that the reference libraries must
write themselves, with a `.json` beside each saying what it holds and what
the reference library answers when it loads it:

- tests/fixtures/torch/archive_names/: one `torch.save` checkpoint per
  archive name length from 1 to 64 (torch names the archive's folder after
  the file), each holding one small tensor; `archive_names.json` lists them.
  Their central directories start at every offset relative to the zip64
  records torch writes before the end record, which is what a zip reader
  that guesses the directory's start from its size gets wrong.
- tensors of dtypes axial does not have (uint16, uint32, complex64, float8)
  beside ones it has, in a safetensors file, an `.npz`, an `.npy`, a
  checkpoint and an HDF5 file: a reader must open the file, read the others,
  and refuse only those, by name.
- every dtype axial has beyond the ten every op has (uint16, uint32,
  uint64, complex64, complex128 and the four float8s) in a checkpoint (with
  a transposed view of one), a safetensors file (all but complex128, which
  it has no dtype for), an `.npz` and an HDF5 file (numpy's and h5py's:
  unsigned and complex), their extreme values included: `new_dtypes.*`.
- an HDF5 file whose datasets carry filters (gzip, shuffle, LZF, fletcher32)
  and fill values, and HDF5 and `.npy` files cut short, with h5py's and
  numpy's messages.

Usage: bench/.venv/bin/python crates/axial-io/tests/python/make_fixtures.py
(the tests read the committed files and need no Python; rerun and commit
after changing what it writes. The bytes differ from run to run where the
libraries stamp them: torch's `.data/serialization_id`, HDF5's object
times; what the files hold and what the `.json` says do not).
"""
import hashlib
import io
import json
import os
import sys
import zipfile

import h5py
import numpy as np
import safetensors
import torch
from safetensors.torch import save_file

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
WRITTEN_BY = {
    "python": sys.version.split()[0],
    "torch": torch.__version__,
    "numpy": np.__version__,
    "h5py": h5py.__version__,
    "hdf5": h5py.version.hdf5_version,
    "safetensors": safetensors.__version__,
}


def out(*parts):
    path = os.path.join(FIXTURES, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def outcome(load):
    try:
        load()
        return {"ok": True}
    except Exception as e:  # the reference library's refusal, as it words it
        return {"ok": False, "type": type(e).__name__, "message": str(e).splitlines()[0]}


def values(t):
    """A tensor's values in C order: complex as [re, im] pairs, float8 as floats."""
    t = t.contiguous().reshape(-1)
    if t.is_complex():
        return [[float(z.real), float(z.imag)] for z in t.tolist()]
    if t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fnuz, torch.float8_e5m2fnuz):
        return [v if v == v else "nan" for v in t.float().tolist()]
    return t.tolist()


def np_values(a):
    a = a.reshape(-1)
    if np.iscomplexobj(a):
        return [[float(z.real), float(z.imag)] for z in a.tolist()]
    return a.tolist()


def zip_tail(path):
    """Where the central directory, its first entry and the end records lie."""
    data = open(path, "rb").read()
    eocd = data.rfind(b"PK\x05\x06")
    cd_size = int.from_bytes(data[eocd + 12:eocd + 16], "little")
    cd_offset = int.from_bytes(data[eocd + 16:eocd + 20], "little")
    first = cd_offset
    name_len = int.from_bytes(data[first + 28:first + 30], "little")
    extra_len = int.from_bytes(data[first + 30:first + 32], "little")
    comment_len = int.from_bytes(data[first + 32:first + 34], "little")
    zip64 = data.rfind(b"PK\x06\x06", 0, eocd)
    return {
        "file_size": len(data),
        "central_directory_offset": cd_offset,
        "central_directory_size": cd_size,
        "first_entry_size": 46 + name_len + extra_len + comment_len,
        "zip64_end_record_offset": zip64 if zip64 >= 0 else None,
        "end_record_offset": eocd,
        "bytes_between_directory_and_end_record": eocd - (cd_offset + cd_size),
    }


def archive_names():
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_"
    stems = []
    for n in range(1, 65):
        stems.append((alphabet * 2)[:n])
    # The two names the failure was first seen with (21 characters each).
    stems[20] = "my_model_checkpoint_1"
    stems.append("resnet50_epoch_010_v2")
    entries = []
    for i, stem in enumerate(stems):
        path = out("torch", "archive_names", f"{stem}.pt")
        w = torch.arange(3, dtype=torch.float32) + len(stem) + i / 100
        torch.save({"w": w}, path)
        with zipfile.ZipFile(path) as z:
            folder = z.namelist()[0].split("/")[0]
        loaded = torch.load(path, weights_only=True)
        assert torch.equal(loaded["w"], w)
        entries.append({
            "file": f"{stem}.pt",
            "archive_folder": folder,
            "name_length": len(stem),
            "w": values(w),
            "sha256_file": hashlib.sha256(open(path, "rb").read()).hexdigest(),
            "torch_load_weights_only_True": {"ok": True},
            "zip": zip_tail(path),
        })
    write_json(out("torch", "archive_names.json"), {
        "fixture": "archive_names/*.pt",
        "kind": "torch.save",
        "written_by": WRITTEN_BY,
        "files": entries,
        "note": "torch.save({'w': w}, f'{stem}.pt') for stems of 1 to 64 characters; "
                "the archive folder is the stem. torch writes a zip64 end record and "
                "locator (76 bytes) between the central directory and the end record.",
    })


# Tensors of dtypes axial does not have, beside ones it has.
def torch_tensors():
    return {
        "f32": torch.tensor([1.5, -2.0, 3.25], dtype=torch.float32),
        "u16": torch.tensor([1, 65535, 300], dtype=torch.uint16),
        "c64": torch.tensor([1 + 2j, -3.5 + 0.5j], dtype=torch.complex64),
        "f8": torch.tensor([0.5, -448.0], dtype=torch.float8_e4m3fn),
        "i64": torch.tensor([[7, -8], [9, 10]], dtype=torch.int64),
    }


def described(tensors):
    return {
        k: {"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape), "values_flat": values(t)}
        for k, t in tensors.items()
    }


def unsupported_dtypes():
    tensors = torch_tensors()

    path = out("safetensors", "unsupported_dtypes.safetensors")
    save_file(tensors, path)
    from safetensors import safe_open
    with safe_open(path, "pt") as f:
        st_dtypes = {k: str(f.get_slice(k).get_dtype()) for k in f.keys()}
    write_json(path + ".json", {
        "fixture": "unsupported_dtypes.safetensors",
        "written_by": WRITTEN_BY,
        "tensors": described(tensors),
        "safetensors_dtypes": st_dtypes,
        "load_file": outcome(lambda: safetensors.torch.load_file(path)),
    })

    path = out("torch", "unsupported_dtypes.pt")
    torch.save(tensors, path)
    write_json(path + ".json", {
        "fixture": "unsupported_dtypes.pt",
        "written_by": WRITTEN_BY,
        "tensors": described(tensors),
        "torch_load_weights_only_True": outcome(lambda: torch.load(path, weights_only=True)),
    })

    arrays = {
        "f4": np.array([1.5, -2.0, 3.25], dtype="<f4"),
        "u2": np.array([1, 65535, 300], dtype="<u2"),
        "u4_big_endian": np.array([1, 4000000000], dtype=">u4"),
        "c8": np.array([1 + 2j, -3.5 + 0.5j], dtype="<c8"),
        "i8": np.array([[7, -8], [9, 10]], dtype="<i8"),
    }
    arrays_json = {
        k: {"descr": a.dtype.str, "dtype": a.dtype.name, "shape": list(a.shape), "values_flat": np_values(a)}
        for k, a in arrays.items()
    }
    for name, save in [("unsupported_dtypes.npz", np.savez), ("unsupported_dtypes_compressed.npz", np.savez_compressed)]:
        path = out("npy", name)
        save(path, **arrays)
        write_json(path + ".json", {
            "fixture": name,
            "written_by": WRITTEN_BY,
            "arrays": arrays_json,
            "np_load_files": list(np.load(path).files),
        })
    for key in ["u2", "c8"]:
        name = f"unsupported_{key}.npy"
        path = out("npy", name)
        np.save(path, arrays[key])
        write_json(path + ".json", {
            "fixture": name,
            "written_by": WRITTEN_BY,
            **arrays_json[key],
            "np_load": outcome(lambda: np.load(path)),
        })


def hdf5_properties():
    path = out("hdf5", "filters_fill.h5")
    with h5py.File(path, "w") as f:
        f.create_dataset("f32", data=np.arange(6, dtype="<f4").reshape(2, 3))
        f.create_dataset("u16", data=np.array([1, 65535, 300], dtype="<u2"))
        f.create_dataset("c64", data=np.array([1 + 2j], dtype="<c8"))
        d = f.create_dataset("gzip_shuffle_fill", shape=(6, 4), dtype="<f4", chunks=(2, 4),
                             compression="gzip", compression_opts=6, shuffle=True, fillvalue=-1.5)
        d[0:2, :] = np.arange(8, dtype="<f4").reshape(2, 4)  # rows 2..6 are never written
        f.create_dataset("lzf_i32", data=np.arange(40, dtype="<i4").reshape(4, 10), chunks=(2, 10),
                         compression="lzf", fillvalue=7)
        f.create_dataset("fletcher32_i16", data=np.arange(12, dtype="<i2"), chunks=(6,), fletcher32=True)
        f.create_dataset("fill_i64", shape=(3,), dtype="<i8", fillvalue=-9)
    objects = {}
    with h5py.File(path, "r") as f:
        for name, d in f.items():
            dcpl = d.id.get_create_plist()
            filters = []
            for i in range(dcpl.get_nfilters()):
                fid, flags, cd, fname = dcpl.get_filter(i)
                filters.append({"id": fid, "name": fname.decode(), "cd_values": list(cd)})
            entry = {
                "dtype": d.dtype.str,
                "shape": list(d.shape),
                "chunks": list(d.chunks) if d.chunks else None,
                "compression": d.compression,
                "compression_opts": d.compression_opts,
                "shuffle": d.shuffle,
                "fletcher32": d.fletcher32,
                "filters_in_pipeline_order": filters,
            }
            if d.dtype.kind in "fiu":
                entry["fillvalue"] = d.fillvalue.item()
                entry["values_flat"] = d[()].reshape(-1).tolist()
            else:
                entry["fillvalue"] = [float(d.fillvalue.real), float(d.fillvalue.imag)]
                entry["values_flat"] = [p for z in d[()].reshape(-1).tolist() for p in (z.real, z.imag)]
            objects[name] = entry
    write_json(path + ".json", {
        "fixture": "filters_fill.h5",
        "written_by": WRITTEN_BY,
        "datasets": objects,
        "h5py_open": outcome(lambda: h5py.File(path, "r").close()),
    })

    # datasets.h5 cut at three quarters: the superblock says where the file ends.
    whole = open(out("hdf5", "datasets.h5"), "rb").read()
    cut = len(whole) * 3 // 4
    path = out("hdf5", "corrupt_truncated_three_quarters.h5")
    with open(path, "wb") as f:
        f.write(whole[:cut])
    write_json(path + ".json", {
        "fixture": "corrupt_truncated_three_quarters.h5",
        "corruption": f"datasets.h5 cut to its first {cut} of {len(whole)} bytes",
        "written_by": WRITTEN_BY,
        "h5py_open": outcome(lambda: h5py.File(path, "r").close()),
    })


def npy_truncated_header():
    buf = io.BytesIO()
    np.save(buf, np.arange(6, dtype="<f4"))
    whole = buf.getvalue()
    for cut, what in [(7, "magic"), (9, "header_length"), (50, "header")]:
        name = f"corrupt_truncated_{what}.npy"
        path = out("npy", name)
        with open(path, "wb") as f:
            f.write(whole[:cut])
        write_json(path + ".json", {
            "fixture": name,
            "corruption": f"np.save of 6 float32 cut to its first {cut} of {len(whole)} bytes",
            "written_by": WRITTEN_BY,
            "numpy_load": outcome(lambda: np.load(path)),
        })


def new_dtypes():
    """Every new dtype, with its extremes, in each format that holds it."""
    tensors = {
        "u16": torch.tensor([[0, 1, 65535], [300, 7, 2**15]], dtype=torch.uint16),
        "u32": torch.tensor([0, 2**32 - 1, 2**31, 5], dtype=torch.uint32),
        "u64": torch.tensor([0, 2**64 - 1, 2**63, 2**53 + 1], dtype=torch.uint64),
        "c64": torch.tensor([[1 + 2j, -3.5 + 0.5j], [1e30 - 1e-30j, 0j]], dtype=torch.complex64),
        "c128": torch.tensor([1e300 + 1j, -0.0 - 2.5j, 1 / 3 + 2 / 3j], dtype=torch.complex128),
    }
    for name, dt in [("f8_e4m3fn", torch.float8_e4m3fn), ("f8_e5m2", torch.float8_e5m2),
                     ("f8_e4m3fnuz", torch.float8_e4m3fnuz), ("f8_e5m2fnuz", torch.float8_e5m2fnuz)]:
        tensors[name] = torch.tensor([0.5, -1.75, 240.0, 0.015625, 3.0, -0.0]).to(dt)
    strides = {k: list(t.stride()) for k, t in tensors.items()}

    def entry(t):
        return {"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape),
                "strides": list(t.stride()), "values_flat": values(t)}

    ckpt = dict(tensors)
    ckpt["u16_t"] = tensors["u16"].t()
    path = out("torch", "new_dtypes.pt")
    torch.save(ckpt, path)
    write_json(path + ".json", {"fixture": "new_dtypes.pt", "written_by": WRITTEN_BY,
                                "tensors": {k: entry(t) for k, t in ckpt.items()},
                                "torch_load": outcome(lambda: torch.load(path, weights_only=True))})
    st = {k: t for k, t in tensors.items() if k != "c128"}
    path = out("safetensors", "new_dtypes.safetensors")
    save_file(st, path)
    write_json(path + ".json", {"fixture": "new_dtypes.safetensors", "written_by": WRITTEN_BY,
                                "tensors": {k: entry(t) for k, t in st.items()},
                                "load_file": outcome(lambda: safetensors.torch.load_file(path))})
    arrays = {k: tensors[k].numpy() for k in ("u16", "u32", "u64", "c64", "c128")}
    path = out("npy", "new_dtypes.npz")
    np.savez(path, **arrays)
    arrays_json = {k: {"descr": a.dtype.str, "dtype": a.dtype.name, "shape": list(a.shape), "values_flat": np_values(a)}
                   for k, a in arrays.items()}
    write_json(path + ".json", {"fixture": "new_dtypes.npz", "written_by": WRITTEN_BY, "arrays": arrays_json})
    path = out("hdf5", "new_dtypes.h5")
    with h5py.File(path, "w") as f:
        for k, a in arrays.items():
            f.create_dataset(k, data=a)
    write_json(path + ".json", {"fixture": "new_dtypes.h5", "written_by": WRITTEN_BY, "datasets": arrays_json})
    del strides


if __name__ == "__main__":
    new_dtypes()
    archive_names()
    unsupported_dtypes()
    hdf5_properties()
    npy_truncated_header()
