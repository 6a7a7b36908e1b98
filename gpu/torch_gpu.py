"""The cases of axial-cuda's gpu_report in PyTorch on the same GPU, timed
with CUDA events the same way (median of runs after a warm-up), as a
markdown table. gpu/check.sh runs it when PyTorch has CUDA."""

import torch


def time_ms(f, runs=10):
    f()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def main():
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    n, side = 1 << 28, 1 << 14
    rows = []
    x = torch.rand(n, device=dev)
    y = torch.rand(n, device=dev)
    out = torch.empty_like(x)
    copy_ms = time_ms(lambda: out.copy_(x))
    rows.append(("copy 1 GiB f32 (device memcpy)", copy_ms, 2 * n * 4, False))
    half_out = torch.empty(n // 2, device=dev)
    rows.append(("copy x[::2] (strided kernel)", time_ms(lambda: half_out.copy_(x[::2])), 2 * (n // 2) * 4, False))
    rows.append(("add 256 Mi f32", time_ms(lambda: x + y), 3 * n * 4, False))
    rows.append(("x * 2.0 (scalar argument)", time_ms(lambda: x * 2.0), 2 * n * 4, False))
    m = torch.rand(side, side, device=dev)
    mt = torch.empty_like(m)
    rows.append(("transposed copy 16384² f32", time_ms(lambda: mt.copy_(m.t())), 2 * side * side * 4, False))
    for dim in (0, 1):
        rows.append((f"sum over axis {dim} of 16384² f32", time_ms(lambda: m.sum(dim)), side * side * 4, False))
    sm = torch.rand(8192, 8192, device=dev)
    rows.append(("softmax over the last axis, 8192² f32 (one kernel)", time_ms(lambda: torch.softmax(sm, -1)),
                 2 * 8192 * 8192 * 4, False))
    rows.append(("softmax over the last axis, 8192² f32 (fused kernel)", time_ms(lambda: torch.softmax(sm, -1)),
                 2 * 8192 * 8192 * 4, False))
    rows.append(("softmax over the first axis, 8192² f32 (fused kernel)", time_ms(lambda: torch.softmax(sm, 0)),
                 2 * 8192 * 8192 * 4, False))
    rows.append(("layer_norm over the last axis, 8192² f32",
                 time_ms(lambda: torch.nn.functional.layer_norm(sm, (8192,), eps=1e-5)), 2 * 8192 * 8192 * 4, False))
    for dtype, name in ((torch.float32, "torch.float32"), (torch.bfloat16, "torch.bfloat16")):
        a = torch.rand(8192, 8192, device=dev, dtype=dtype)
        b = torch.rand(8192, 8192, device=dev, dtype=dtype)
        rows.append((f"matmul 8192³ {name} (cuBLAS)", time_ms(lambda: a @ b, runs=5), 2 * 8192 ** 3, True))

    copy_bw = 2 * n * 4 / (copy_ms * 1e-3)
    print(f"## PyTorch {torch.__version__} on {torch.cuda.get_device_name()}\n")
    print("| case | ms | GB/s or TFLOP/s | of copy bandwidth |\n|---|---|---|---|")
    for case, ms, work, flops in rows:
        if flops:
            print(f"| {case} | {ms:.3f} | {work / (ms * 1e-3) / 1e12:.1f} TFLOP/s | |")
        else:
            bw = work / (ms * 1e-3)
            print(f"| {case} | {ms:.3f} | {bw / 1e9:.0f} GB/s | {100 * bw / copy_bw:.0f}% |")


if __name__ == "__main__":
    main()
