"""Gradients through einops patterns in PyTorch, for `tests/einops_grad.rs`:
each case is an input (elements 0.1·i − 1 for element i, float64), the
pattern as PyTorch's views and reductions compute it, and the loss
`(y * w).sum()` with weights `w` (0.5 + 0.25·j for element j of the output);
the input's gradient goes to `tests/data/torch_einops_grad.json`.

    bench/.venv/bin/python oracle/torch_einops_grad.py
"""

import json
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "tests/data/torch_einops_grad.json"

# name: (input shape, function of the input)
CASES = {
    # rearrange "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2
    "split_heads": ([2, 3, 6], lambda x: x.view(2, 3, 2, 3).permute(0, 2, 1, 3)),
    # rearrange "Rows Cols -> Cols Rows"
    "transpose": ([3, 4], lambda x: x.t()),
    # repeat "Rows Cols -> Rows Copies Cols", Copies = 3
    "repeat": ([2, 4], lambda x: x[:, None, :].expand(2, 3, 4)),
    # reduce "Rows Cols -> Rows" by mean; then by max (ties split evenly)
    "reduce_mean": ([3, 4], lambda x: x.mean(1)),
    "reduce_max": ([3, 4], lambda x: x.amax(1)),
    # einsum "Rows Inner, Inner Cols -> Rows Cols" against a fixed right side
    "einsum": ([2, 3], lambda x: torch.einsum("ij,jk->ik", x, RHS)),
}
RHS = (torch.arange(12, dtype=torch.float64) * 0.3 - 1.0).reshape(3, 4)


def main():
    record = {}
    for name, (shape, f) in CASES.items():
        n = 1
        for s in shape:
            n *= s
        x = (torch.arange(n, dtype=torch.float64) * 0.1 - 1.0).reshape(shape).requires_grad_()
        y = f(x)
        w = (torch.arange(y.numel(), dtype=torch.float64) * 0.25 + 0.5).reshape(y.shape)
        (y * w).sum().backward()
        record[name] = x.grad.flatten().tolist()
    OUT.write_text(json.dumps(record) + "\n")
    print(f"wrote {OUT.relative_to(OUT.parent.parent.parent)}")


if __name__ == "__main__":
    main()
