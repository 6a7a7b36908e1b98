"""Gradients through einops patterns in PyTorch, for `tests/einops_grad.rs`.

Each case is a list of inputs (a shape and a kind of elements, computed in
float64 and cast to the case's dtype), the pattern as einops' torch backend
computes it (views, `reshape`, `permute`, `expand`, `sum`/`mean`/`amax`/
`amin`/`prod` over the reduced axes, `torch.einsum`), and the loss
`(y * w).sum()` with weights `w` (0.5 + 0.25·j for element j of the output,
in the case's dtype). Every input's gradient goes to
`tests/data/torch_einops_grad.json`, by case: `{"dtype": ..., "grads": [...]}`.

Kinds of elements, for element i: `ramp` 0.1·i − 1 (element 10 is exactly
0), `ramp2` 0.3·i − 1, `positive` 0.1·i + 0.5, `ties` 0.5·(i mod 3) − 0.5
(repeated values, zeros at every third element from the second).

    bench/.venv/bin/python oracle/torch_einops_grad.py
"""

import json
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "tests/data/torch_einops_grad.json"

KINDS = {
    "ramp": lambda i: i * 0.1 - 1.0,
    "ramp2": lambda i: i * 0.3 - 1.0,
    "positive": lambda i: i * 0.1 + 0.5,
    "ties": lambda i: (i % 3) * 0.5 - 0.5,
}
RHS = (torch.arange(12, dtype=torch.float64) * 0.3 - 1.0).reshape(3, 4)


def prod_axes(x, axes):
    """einops' torch backend: one `prod` per axis, the last axis first."""
    for axis in sorted(axes, reverse=True):
        x = x.prod(dim=axis)
    return x


def heads(x):
    """rearrange "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2."""
    b, s, inner = x.shape
    return x.reshape(b, s, 2, inner // 2).permute(0, 2, 1, 3)


# name: (dtype, [(shape, kind)], function of the inputs)
CASES = {
    # rearrange "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2
    "split_heads": ("f64", [([2, 3, 6], "ramp")], heads),
    # rearrange "Rows Cols -> Cols Rows"
    "transpose": ("f64", [([3, 4], "ramp")], lambda x: x.t()),
    # rearrange "Batch Heads Seq Head -> Batch Seq (Heads Head)" (a copy)
    "merge_heads": (
        "f64",
        [([2, 2, 3, 2], "ramp")],
        lambda x: x.permute(0, 2, 1, 3).reshape(2, 3, 4),
    ),
    # rearrange "Cols Rows -> (Cols Rows)" of a transposed input (a copy)
    "flatten_transposed": ("f64", [([3, 4], "ramp")], lambda x: x.t().reshape(12)),
    # repeat "Rows Cols -> Rows Copies Cols", Copies = 3
    "repeat": ("f64", [([2, 4], "ramp")], lambda x: x[:, None, :].expand(2, 3, 4)),
    # repeat "Rows Cols -> Rows (Copies Cols)", Copies = 2
    "repeat_merged": (
        "f64",
        [([2, 4], "ramp")],
        lambda x: x[:, None, :].expand(2, 2, 4).reshape(2, 8),
    ),
    # reduce "Rows Cols Inner -> Rows" by sum
    "reduce_sum": ("f64", [([2, 3, 4], "ramp")], lambda x: x.sum((1, 2))),
    # reduce "Rows Cols -> Rows" by mean
    "reduce_mean": ("f64", [([3, 4], "ramp")], lambda x: x.mean(1)),
    # reduce "Rows Cols -> Rows" by max
    "reduce_max": ("f64", [([3, 4], "ramp")], lambda x: x.amax(1)),
    # the same with ties (which share the gradient equally)
    "reduce_max_ties": ("f64", [([3, 4], "ties")], lambda x: x.amax(1)),
    # reduce "Rows Cols Inner -> Cols" by min, with ties
    "reduce_min_ties": ("f64", [([2, 3, 4], "ties")], lambda x: x.amin((0, 2))),
    # reduce "Rows Cols -> Rows" by prod (row 2 holds one zero)
    "reduce_prod": ("f64", [([3, 4], "ramp")], lambda x: prod_axes(x, [1])),
    # the same, rows 0 and 2 with one zero, row 1 with two
    "reduce_prod_zeros": ("f64", [([3, 4], "ties")], lambda x: prod_axes(x, [1])),
    # reduce "Rows Cols Inner -> Rows" by prod, no zeros
    "reduce_prod_axes": ("f64", [([2, 3, 2], "positive")], lambda x: prod_axes(x, [1, 2])),
    # einsum "Rows Inner, Inner Cols -> Rows Cols" against a fixed right side
    "einsum": ("f64", [([2, 3], "ramp")], lambda x: torch.einsum("ij,jk->ik", x, RHS)),
    # einsum "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key"
    "attention_scores": (
        "f64",
        [([2, 2, 3, 4], "ramp"), ([2, 2, 5, 4], "ramp2")],
        lambda q, k: torch.einsum("bhsd,bhkd->bhsk", q, k),
    ),
    # einsum "Rows Inner, Inner Cols, Cols Out -> Rows Out"
    "einsum_three": (
        "f64",
        [([2, 3], "ramp"), ([3, 4], "ramp2"), ([4, 2], "positive")],
        lambda a, b, c: torch.einsum("ab,bc,cd->ad", a, b, c),
    ),
    # einsum "Batch Rows, Batch Cols -> Batch Rows Cols"
    "einsum_outer": (
        "f64",
        [([2, 3], "ramp"), ([2, 4], "ramp2")],
        lambda a, b: torch.einsum("bi,bj->bij", a, b),
    ),
    # einsum "Rows Inner, Cols -> Rows Cols" (Inner summed in one operand)
    "einsum_own_sum": (
        "f64",
        [([2, 3], "ramp"), ([4], "ramp2")],
        lambda a, b: torch.einsum("ab,c->ac", a, b),
    ),
    # one input split into heads, its attention scores with itself
    "self_attention_scores": (
        "f64",
        [([2, 3, 8], "ramp")],
        lambda x: torch.einsum("bhsd,bhkd->bhsk", heads(x), heads(x)),
    ),
    # f32 (compared within 1e-5 relative)
    "split_heads_f32": ("f32", [([2, 3, 6], "ramp")], heads),
    "reduce_max_ties_f32": ("f32", [([3, 4], "ties")], lambda x: x.amax(1)),
    "reduce_prod_f32": ("f32", [([3, 4], "ramp")], lambda x: prod_axes(x, [1])),
    "attention_scores_f32": (
        "f32",
        [([2, 2, 3, 4], "ramp"), ([2, 2, 5, 4], "ramp2")],
        lambda q, k: torch.einsum("bhsd,bhkd->bhsk", q, k),
    ),
}
DTYPES = {"f64": torch.float64, "f32": torch.float32}


def tensor(shape, kind, dtype):
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.float64)
    return KINDS[kind](i).reshape(shape).to(dtype).requires_grad_()


def main():
    record = {}
    for name, (dtype, inputs, f) in CASES.items():
        xs = [tensor(shape, kind, DTYPES[dtype]) for shape, kind in inputs]
        y = f(*xs)
        w = (torch.arange(y.numel(), dtype=torch.float64) * 0.25 + 0.5).reshape(y.shape)
        (y * w.to(DTYPES[dtype])).sum().backward()
        grads = [x.grad.flatten().tolist() for x in xs]
        record[name] = {"dtype": dtype, "grads": grads}
    OUT.write_text(json.dumps(record) + "\n")
    print(f"wrote {OUT.relative_to(OUT.parent.parent.parent)}")


if __name__ == "__main__":
    main()
