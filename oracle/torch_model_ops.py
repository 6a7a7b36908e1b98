"""PyTorch's answers for the typed ops model code needs, written for axial to replay.

Runs `cat`, `stack`, `gather`, `index_select`, `tril`/`triu`, `cumsum`, `pad`
(four modes), `topk`, `where`, `unfold`, `scaled_dot_product_attention`
(no mask, causal, bool and float masks, a scale), `mse_loss` and
`cross_entropy` (class indices with weights, `ignore_index` and label
smoothing; class probabilities) on small tensors of fixed shapes and seeded
values, and writes each case's inputs and PyTorch's output (shape, values,
or the error message) to a JSON file. `tests/typed_model_ops.rs` replays
every case through axial's typed API, where the shapes are types.

    bash bench/setup.sh                              # once: bench/.venv with torch
    bench/.venv/bin/python oracle/torch_model_ops.py # rewrites the JSON file

The output depends only on the seed and the PyTorch version.
"""

import argparse
import json
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/data/torch_model_ops.json"
SEED = 20_261_204


def t(x):
    """A tensor as the file holds it: dtype, shape, values in row-major order."""
    x = x.contiguous()
    return {"dtype": str(x.dtype).removeprefix("torch."), "shape": list(x.shape),
            "values": x.flatten().tolist()}


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=torch.float64).to(dtype)


def distinct(*shape):
    """Values without ties (topk's order of equal values is unspecified)."""
    n = 1
    for s in shape:
        n *= s
    return (torch.randperm(n).to(torch.float32) * 0.25 - n / 8).reshape(shape)


def attempt(f):
    """PyTorch's result, or its message."""
    try:
        return {"out": f()}
    except (RuntimeError, IndexError) as e:
        return {"err": str(e).split("\n")[0]}


def cases():
    out = {}

    a, b = randn(2, 3), randn(2, 4)
    out["cat"] = {"a": t(a), "b": t(b), "out": t(torch.cat([a, b], 1))}
    c = randn(2, 3)
    out["stack"] = {"a": t(a), "b": t(c), "out": t(torch.stack([a, c], 1))}

    x = randn(3, 4)
    idx = torch.tensor([[3, 0], [1, 1], [2, 0]])
    out["gather"] = {"x": t(x), "index": t(idx), "out": t(torch.gather(x, 1, idx))}
    sel = torch.tensor([2, 0, 2, 1])
    out["index_select"] = {"x": t(x), "index": t(sel),
                           "out": t(torch.index_select(x, 0, sel))}

    y = randn(3, 2, 4)
    moved = y.movedim(1, 0)  # the matrices of (dim 0, dim 2), batched over dim 1
    out["tril"] = {"x": t(y), "diagonals": [-1, 0, 2],
                   "out": [t(torch.tril(moved, d).movedim(0, 1)) for d in (-1, 0, 2)]}
    out["triu"] = {"x": t(y), "diagonals": [-1, 0, 2],
                   "out": [t(torch.triu(moved, d).movedim(0, 1)) for d in (-1, 0, 2)]}

    out["cumsum"] = {"x": t(y), "out": [t(torch.cumsum(y, d)) for d in range(3)]}
    ints = torch.randint(-5, 5, (3, 4), dtype=torch.int32)
    out["cumsum_int"] = {"x": t(ints), "out": t(torch.cumsum(ints, 1))}

    p = randn(2, 3, 5)
    out["pad"] = {
        "x": t(p),
        "last": {m: t(F.pad(p, (1, 2), mode=m, **({"value": 0.5} if m == "constant" else {})))
                 for m in ("constant", "reflect", "replicate", "circular")},
        "middle": {m: t(F.pad(p, (0, 0, 2, 1), mode=m, **({"value": -1.0} if m == "constant" else {})))
                   for m in ("constant", "reflect", "replicate", "circular")},
        "reflect_too_long": attempt(lambda: t(F.pad(p, (0, 0, 3, 0), mode="reflect"))),
    }

    d = distinct(4, 7)
    out["topk"] = {"x": t(d), "largest": [t(v) for v in torch.topk(d, 3, 1, True, True)],
                   "smallest": [t(v) for v in torch.topk(d, 3, 1, False, True)],
                   "by_rows": [t(v) for v in torch.topk(d, 2, 0, True, True)]}

    cond = torch.tensor([[True], [False], [True]])
    wa, wb = randn(1, 4), randn(3, 4)
    out["where"] = {"cond": t(cond.to(torch.uint8)), "a": t(wa), "b": t(wb),
                    "out": t(torch.where(cond, wa, wb))}

    u = randn(2, 9)
    out["unfold"] = {"x": t(u), "out": t(u.unfold(1, 3, 2))}

    q, k, v = randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 6)
    bool_mask = torch.rand(3, 5) > 0.3
    bool_mask[:, 0] = True  # every query keeps a key
    float_mask = randn(3, 5)
    sdpa = F.scaled_dot_product_attention
    out["attention"] = {
        "q": t(q), "k": t(k), "v": t(v),
        "bool_mask": t(bool_mask.to(torch.uint8)), "float_mask": t(float_mask),
        "plain": t(sdpa(q, k, v)),
        "causal": t(sdpa(q, k, v, is_causal=True)),
        "bool": t(sdpa(q, k, v, attn_mask=bool_mask)),
        "float": t(sdpa(q, k, v, attn_mask=float_mask)),
        "scaled": t(sdpa(q, k, v, scale=0.5)),
    }

    xm, ym = randn(3, 4), randn(3, 4)
    out["mse_loss"] = {"x": t(xm), "y": t(ym),
                       "out": {r: t(F.mse_loss(xm, ym, reduction=r)) for r in ("none", "mean", "sum")}}

    logits = randn(2, 5, 3)  # [Batch, Classes, Pos]
    target = torch.randint(0, 5, (2, 3))
    target[0, 1] = -100
    weight = torch.rand(5, dtype=torch.float64).to(torch.float32) + 0.5
    probs = torch.softmax(randn(2, 5, 3), 1)
    ce = {}
    for r in ("none", "mean", "sum"):
        ce[f"plain_{r}"] = t(F.cross_entropy(logits, target, reduction=r))
        ce[f"weighted_{r}"] = t(F.cross_entropy(logits, target, weight=weight, reduction=r))
        ce[f"smoothed_{r}"] = t(F.cross_entropy(logits, target, weight=weight, reduction=r,
                                                label_smoothing=0.1))
        ce[f"probs_{r}"] = t(F.cross_entropy(logits, probs, reduction=r, label_smoothing=0.2))
        ce[f"probs_weighted_{r}"] = t(F.cross_entropy(logits, probs, weight=weight, reduction=r))
    bad = target.clone()
    bad[1, 2] = 5
    out["cross_entropy"] = {
        "logits": t(logits), "target": t(target), "weight": t(weight), "probs": t(probs),
        "out": ce,
        "out_of_range": attempt(lambda: t(F.cross_entropy(logits, bad))),
    }
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    torch.manual_seed(SEED)
    doc = {"generator": "oracle/torch_model_ops.py", "torch": torch.__version__.split("+")[0],
           "seed": SEED, "cases": cases()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    try:
        shown = args.out.resolve().relative_to(ROOT)
    except ValueError:
        shown = args.out
    print(f"{shown}: {len(doc['cases'])} ops")


if __name__ == "__main__":
    main()
