"""The chapter's NumPy demonstration, both ways, through the axial extension
module: one memory seen from axial, NumPy and PyTorch, and the arrays
PyTorch's `from_numpy` refuses refused here too (or copied when asked).

Run: python python/tests/test_interop.py  (prints what it shows, then
"N passed, 0 failed"; exits 1 on any failure).
"""
import gc
import sys
import traceback

import numpy as np

import axial

try:
    import torch
except ImportError:  # the PyTorch side is skipped, and says so
    torch = None


def addr(a):
    return a.ctypes.data


def raises(kind, fn, contains):
    try:
        fn()
    except kind as e:
        assert contains in str(e), f"{kind.__name__} without {contains!r}: {e}"
        return str(e)
    raise AssertionError(f"expected {kind.__name__}")


def test_numpy_to_axial_shares_memory():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = axial.from_numpy(a)
    print("from_numpy:", t.shape, t.stride(), t.dtype, "same memory", t.data_ptr() == addr(a))
    assert (t.shape, t.stride(), t.data_ptr()) == ([3, 4], [4, 1], addr(a))
    t.add_(10.0)
    print("t.add_(10.0) -> numpy sees a[0] =", a[0].tolist())
    assert a[0].tolist() == [10.0, 11.0, 12.0, 13.0]
    a[2, 3] = -1.0
    assert t.tolist()[2][3] == -1.0
    print("a[2, 3] = -1 -> axial sees", t.tolist()[2][3])
    for name, view, stride, offset_bytes in [
        ("a.T", a.T, [1, 4], 0),
        ("a[:, ::2]", a[:, ::2], [4, 2], 0),
        ("a[1:, 1:]", a[1:, 1:], [4, 1], 20),
    ]:
        v = axial.from_numpy(view)
        print(f"from_numpy({name}):", v.shape, v.stride(), "offset", v.storage_offset(),
              "data_ptr - a", v.data_ptr() - addr(a))
        assert (v.stride(), v.storage_offset(), v.data_ptr() - addr(a)) == (stride, 0, offset_bytes)


def test_axial_to_numpy_shares_memory():
    t = axial.arange(12).view([3, 4])
    n = np.from_dlpack(t)
    print("np.from_dlpack(t):", n.shape, n.strides, n.dtype, "C", n.flags["C_CONTIGUOUS"],
          "writeable", n.flags["WRITEABLE"], "same memory", addr(n) == t.data_ptr())
    assert (n.shape, n.strides, addr(n)) == ((3, 4), (16, 4), t.data_ptr())
    t.add_(10.0)
    print("t.add_(10.0) -> numpy sees n[0] =", n[0].tolist())
    assert n[0].tolist() == [10.0, 11.0, 12.0, 13.0]
    n[1, 1] = 100.0
    print("n[1, 1] = 100 -> axial sees", t.tolist()[1][1])
    assert t.tolist()[1][1] == 100.0
    tt = t.t()
    nt = np.from_dlpack(tt)
    print("np.from_dlpack(t.t()): strides", nt.strides, "F", nt.flags["F_CONTIGUOUS"], "same memory", addr(nt) == t.data_ptr())
    assert (nt.shape, nt.strides, addr(nt)) == ((4, 3), (4, 16), t.data_ptr())
    assert t.numpy().strides == (16, 4)


def test_memory_lives_until_the_last_consumer():
    t = axial.arange(5, dtype="int64")
    n = np.from_dlpack(t)
    del t
    gc.collect()
    assert n.tolist() == [0, 1, 2, 3, 4]
    a = np.arange(4.0)
    x = axial.from_numpy(a)
    del a
    gc.collect()
    x.add_(1.0)
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0]
    print("after del of the producer: numpy still reads", n.tolist(), "and axial", x.tolist())


def test_refused_like_from_numpy_or_copied_when_asked():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    msg = raises(ValueError, lambda: axial.from_numpy(a[::-1]), "negative")
    print("from_numpy(a[::-1]):", msg)
    c = axial.from_numpy(a[::-1], copy=True)
    assert c.tolist()[0] == [8.0, 9.0, 10.0, 11.0] and c.data_ptr() != addr(a)
    print("from_numpy(a[::-1], copy=True):", c.stride(), c.tolist()[0])
    big = np.arange(3, dtype=">f4")
    print("from_numpy(>f4):", raises(ValueError, lambda: axial.from_numpy(big), "byte order"))
    assert axial.from_numpy(big, copy=True).tolist() == [0.0, 1.0, 2.0]
    odd = np.ndarray((2,), np.float32, np.zeros(12, np.uint8), 0, (6,))
    print("stride not a multiple of itemsize:", raises(ValueError, lambda: axial.from_numpy(odd), "multiple"))
    assert axial.from_numpy(odd, copy=True).stride() == [1]
    print("object array:", raises(TypeError, lambda: axial.from_numpy(np.array([1, "a"], dtype=object)), "numpy.object_"))
    print("uint16 array:", raises(TypeError, lambda: axial.from_numpy(np.zeros(2, np.uint16)), "numpy.uint16"))
    print("numpy scalar:", raises(TypeError, lambda: axial.from_numpy(np.float32(1.0)), "expected np.ndarray"))
    zero_d = axial.from_numpy(np.array(3.5))
    assert (zero_d.shape, zero_d.tolist()) == ([], 3.5)


def test_read_only_is_honoured():
    ro = np.arange(3.0)
    ro.flags.writeable = False
    t = axial.from_numpy(ro)
    print("read-only array -> axial read-only:", t.is_read_only, "; add_:",
          raises(ValueError, lambda: t.add_(1.0), "read-only"))
    assert ro.tolist() == [0.0, 1.0, 2.0]
    n = np.from_dlpack(t)
    print("np.from_dlpack(read-only axial): writeable", n.flags["WRITEABLE"])
    assert not n.flags["WRITEABLE"]
    print("unversioned __dlpack__() of it:", raises(BufferError, lambda: t.__dlpack__(), "legacy DLPack ABI"))
    b = axial.from_numpy(np.broadcast_to(np.arange(3.0), (4, 3)))
    print("broadcast_to (stride 0):", b.stride(), "read-only", b.is_read_only)
    assert (b.stride(), b.is_read_only) == ([0, 1], True)
    robuf = np.frombuffer(bytearray(8), dtype=np.float32)
    robuf.flags.writeable = False
    r = axial.from_dlpack(robuf)
    assert r.is_read_only
    print("axial.from_dlpack(read-only numpy): read-only", r.is_read_only)


def test_pytorch_both_ways():
    if torch is None:
        print("torch is not installed: the PyTorch side is skipped")
        return
    t = axial.arange(12).view([3, 4])
    x = torch.from_dlpack(t)
    print("torch.from_dlpack(t):", tuple(x.shape), x.stride(), x.dtype, "same memory", x.data_ptr() == t.data_ptr())
    assert (x.stride(), x.data_ptr()) == ((4, 1), t.data_ptr())
    x.add_(10.0)
    print("torch add_(10.0) -> axial sees", t.tolist()[0])
    assert t.tolist()[0] == [10.0, 11.0, 12.0, 13.0]
    t.add_(1.0)
    assert x[0].tolist() == [11.0, 12.0, 13.0, 14.0]
    xt = torch.from_dlpack(t.t())
    assert (xt.stride(), xt.data_ptr()) == ((1, 4), t.data_ptr())
    y = torch.arange(12.0).view(3, 4)
    a = axial.from_dlpack(y.t())
    print("axial.from_dlpack(y.t()):", a.shape, a.stride(), "same memory", a.data_ptr() == y.data_ptr())
    assert (a.stride(), a.data_ptr()) == ([1, 4], y.data_ptr())
    s = axial.from_dlpack(y[1:, 1:3])
    print("axial.from_dlpack(y[1:, 1:3]):", s.stride(), "offset", s.storage_offset(), "data_ptr - y", s.data_ptr() - y.data_ptr())
    assert (s.stride(), s.data_ptr() - y.data_ptr()) == ([4, 1], 20)
    a.add_(100.0)
    assert y[0, 0].item() == 100.0
    print("axial add_(100.0) -> torch sees y[0, 0] =", y[0, 0].item())
    bf = torch.from_dlpack(axial.arange(3, dtype="bfloat16"))
    assert bf.dtype == torch.bfloat16 and bf.tolist() == [0.0, 1.0, 2.0]
    print("bfloat16 through DLPack:", bf.dtype, bf.tolist())
    print("np.from_dlpack(bfloat16 axial):", raises(RuntimeError, lambda: np.from_dlpack(axial.arange(2, dtype="bfloat16")), "dtype"))


def main():
    tests = [(name, fn) for name, fn in globals().items() if name.startswith("test_") and callable(fn)]
    passed = failed = 0
    for name, fn in tests:
        print(f"--- {name}")
        try:
            fn()
            passed += 1
        except Exception:
            failed += 1
            traceback.print_exc()
            print(f"FAILED {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
