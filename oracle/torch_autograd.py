"""PyTorch's gradients for random op graphs, written for axial to replay.

Builds random graphs of differentiable ops on small float32 and float64
tensors (rank 0 to 3, sizes 0 to 4, leaves seen through non-contiguous
and overlapping views, broadcasting, ties for max/min, in-place writes),
runs each forward and backward in PyTorch (`torch.autograd`), and writes
the leaves, the steps, the output's gradient, the output and every leaf's
gradient to a JSON file. `crates/axial-core/tests/torch_autograd.rs`
replays the file against `axial_core::autograd` and compares every value.

    bash bench/setup.sh                             # once: bench/.venv with torch
    bench/.venv/bin/python oracle/torch_autograd.py # rewrites the JSON file

The output depends only on the seed and the PyTorch version.
"""

import argparse
import json
import math
import random
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/axial-core/tests/data/torch_autograd.json"

SEED = 20_261_206
GRAPHS = 2200
DTYPES = {"f32": torch.float32, "f64": torch.float64}

UNARY = {
    "neg": torch.neg,
    "abs": torch.abs,
    "exp": torch.exp,
    "expm1": torch.expm1,
    "sin": torch.sin,
    "cos": torch.cos,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "relu": torch.relu,
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
    "erf": torch.erf,
    "square": torch.square,
    "sign": torch.sign,
    "floor": torch.floor,
}
# Defined for positive inputs only: applied to exp(x).
POSITIVE = {
    "sqrt": torch.sqrt,
    "rsqrt": torch.rsqrt,
    "log": torch.log,
    "log1p": torch.log1p,
    "reciprocal": torch.reciprocal,
}
BINARY = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": torch.div,
    "pow": torch.pow,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "atan2": torch.atan2,
}
SCALAR = {
    "add": lambda x, s: x + s,
    "sub": lambda x, s: x - s,
    "mul": lambda x, s: x * s,
    "div": lambda x, s: x / s,
    "pow": lambda x, s: x**s,
}
SCALAR_LEFT = {
    "add": lambda x, s: s + x,
    "sub": lambda x, s: s - x,
    "mul": lambda x, s: s * x,
    "div": lambda x, s: s / x,
    "pow": lambda x, s: s**x,
}


def shares(out, t):
    """Whether `out` views `t`'s storage."""
    return out.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()


class Skip(Exception):
    """The op does not apply to the tensors at hand."""


def grid(rng, n, lo=-2.0, hi=2.0):
    """n multiples of 1/8 in [lo, hi]: exact in f32 and f64, short in JSON, and
    equal often enough to meet ties."""
    return [rng.randint(int(lo * 8), int(hi * 8)) / 8 for _ in range(n)]


def numbers(t):
    """A tensor's values in row-major order, as JSON numbers that round-trip:
    float64 in full, float32 to the 9 significant digits that name each float32
    exactly."""
    values = t.detach().reshape(-1).tolist()
    if t.dtype == torch.float32:
        return [float(f"{v:.9g}") for v in values]
    return values


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.dtype_name = "f64" if rng.random() < 0.4 else "f32"
        self.dtype = DTYPES[self.dtype_name]
        self.leaves = []
        self.tensors = []  # torch tensors, leaves first
        self.groups = []  # storage group of each tensor (views share one)
        self.steps = []
        self.leaf_tensors = []
        self.next_group = 0

    # -- helpers ------------------------------------------------------------
    def shape(self, max_rank=3):
        rank = self.rng.choice([0, 1, 1, 2, 2, 2, 3, 3][: 2 + 2 * max_rank])
        return [self.rng.choice([0, 1, 2, 2, 3, 3, 4]) if self.rng.random() < 0.93 else 0 for _ in range(rank)]

    def add_tensor(self, t, group=None):
        if group is None:
            group = self.next_group
            self.next_group += 1
        self.tensors.append(t)
        self.groups.append(group)
        return len(self.tensors) - 1

    def leaf(self, shape):
        values = grid(self.rng, math.prod(shape))
        t = torch.tensor(values, dtype=self.dtype).reshape(shape).requires_grad_()
        self.leaves.append({"shape": shape, "values": values})
        self.steps.append({"op": "leaf"})
        self.leaf_tensors.append(t)
        return self.add_tensor(t)

    def const(self, shape, lo=-2.0, hi=2.0):
        values = grid(self.rng, math.prod(shape), lo, hi)
        return torch.tensor(values, dtype=self.dtype).reshape(shape), {"shape": shape, "values": values}

    def pick(self, pred=lambda t: True):
        choices = [i for i, t in enumerate(self.tensors) if pred(t)]
        if not choices:
            raise Skip
        return self.rng.choice(choices)

    def step(self, record, t, view_of=None):
        group = self.groups[view_of] if view_of is not None else None
        i = self.add_tensor(t, group)
        self.steps.append(record)
        return i

    def dim(self, t):
        if t.dim() == 0:
            raise Skip
        return self.rng.randrange(-t.dim(), t.dim())

    # -- ops ----------------------------------------------------------------
    def op_unary(self):
        x = self.pick()
        name = self.rng.choice(list(UNARY))
        return self.step({"op": "unary", "name": name, "x": x}, UNARY[name](self.tensors[x]))

    def op_positive(self):
        x = self.pick(lambda t: t.numel() > 0)
        e = self.step({"op": "unary", "name": "exp", "x": x}, torch.exp(self.tensors[x]))
        name = self.rng.choice(list(POSITIVE))
        return self.step({"op": "unary", "name": name, "x": e}, POSITIVE[name](self.tensors[e]))

    def op_pow(self):
        x = self.pick()
        p = self.rng.choice([2.0, 3.0, 0.0, 1.0, 0.5, -1.0, 1.5])
        if p not in (2.0, 3.0, 0.0, 1.0):
            x = self.step({"op": "unary", "name": "exp", "x": x}, torch.exp(self.tensors[x]))
        return self.step({"op": "pow", "x": x, "p": p}, self.tensors[x].pow(p))

    def op_clamp(self):
        x = self.pick()
        lo = self.rng.choice([None, -1.0, -0.5, 0.0])
        hi = self.rng.choice([None, 0.5, 1.0]) if lo is not None else self.rng.choice([0.5, 1.0])
        return self.step({"op": "clamp", "x": x, "min": lo, "max": hi}, self.tensors[x].clamp(lo, hi))

    def op_activation(self):
        x = self.pick()
        t = self.tensors[x]
        if self.rng.random() < 0.5:
            slope = self.rng.choice([0.01, 0.2])
            return self.step({"op": "leaky_relu", "x": x, "slope": slope}, F.leaky_relu(t, slope))
        lo, hi = self.rng.choice([(0.0, 6.0), (-1.0, 1.0), (-0.5, 0.25)])
        return self.step({"op": "hardtanh", "x": x, "min": lo, "max": hi}, F.hardtanh(t, lo, hi))

    def op_binary(self):
        a = self.pick()
        ta = self.tensors[a]
        if self.rng.random() < 0.5:
            # A new leaf broadcast against `a`: trailing sizes, some made 1.
            tail = list(ta.shape)[self.rng.randint(0, ta.dim()) :]
            shape = [1 if self.rng.random() < 0.3 else n for n in tail]
            if self.rng.random() < 0.2:
                shape = [self.rng.choice([1, 2])] + shape
            b = self.leaf(shape)
        else:
            b = self.pick(lambda t: t.shape == ta.shape)
        name = self.rng.choice(list(BINARY))
        # A positive denominator; atan2's too, away from its branch cut
        # (where the sign of a zero numerator picks π or −π).
        if name in ("div", "atan2"):
            b = self.step({"op": "unary", "name": "exp", "x": b}, torch.exp(self.tensors[b]))
        if name == "pow":
            a = self.step({"op": "unary", "name": "exp", "x": a}, torch.exp(self.tensors[a]))
        try:
            out = BINARY[name](self.tensors[a], self.tensors[b])
        except RuntimeError:
            raise Skip
        return self.step({"op": "binary", "name": name, "a": a, "b": b}, out)

    def op_scalar(self):
        x = self.pick()
        name = self.rng.choice(list(SCALAR))
        left = self.rng.random() < 0.4
        s = self.rng.choice([2.0, -1.5, 0.5, 3.0])
        if (left and name in ("div",)) or (not left and name == "pow"):
            x = self.step({"op": "unary", "name": "exp", "x": x}, torch.exp(self.tensors[x]))
        if left and name == "pow":
            s = abs(s)
        table = SCALAR_LEFT if left else SCALAR
        out = table[name](self.tensors[x], s)
        return self.step({"op": "scalar", "name": name, "x": x, "s": s, "left": left}, out)

    def dims_of(self, t):
        if t.dim() == 0:
            return []
        k = self.rng.randint(0, t.dim())
        return sorted(self.rng.sample(range(t.dim()), k))

    def op_reduce(self):
        x = self.pick()
        t = self.tensors[x]
        name = self.rng.choice(["sum", "mean", "var", "std", "amax", "amin", "logsumexp"])
        dims = self.dims_of(t)
        keepdim = self.rng.random() < 0.4
        count = math.prod([t.shape[d] for d in dims]) if dims else t.numel()
        correction = 1.0
        if name in ("var", "std"):
            correction = self.rng.choice([0.0, 1.0])
            if count - correction <= 0:
                raise Skip
        if name in ("amax", "amin") and (count == 0 or t.numel() == 0 or not dims):
            raise Skip
        if name == "mean" and count == 0:
            raise Skip
        record = {"op": "reduce", "name": name, "x": x, "dims": dims, "keepdim": keepdim, "correction": correction}
        if name == "sum":
            out = t.sum(dims, keepdim)
        elif name == "mean":
            out = t.mean(dims, keepdim)
        elif name == "var":
            # dim=[] reduces every dim forward but none backward in torch
            # 2.15 (its own gradcheck fails): asked as dim=None, which is
            # what axial's empty list means.
            out = t.var(dims or None, correction=correction, keepdim=keepdim)
        elif name == "std":
            out = t.std(dims or None, correction=correction, keepdim=keepdim)
        elif name == "amax":
            out = t.amax(dims, keepdim)
        elif name == "amin":
            out = t.amin(dims, keepdim)
        else:
            if t.numel() == 0:
                raise Skip
            out = t.logsumexp(dims if dims else list(range(t.dim())), keepdim)
        return self.step(record, out)

    def op_maxdim(self):
        x = self.pick(lambda t: t.dim() > 0 and t.numel() > 0)
        t = self.tensors[x]
        d = self.dim(t)
        keepdim = self.rng.random() < 0.5
        minimum = self.rng.random() < 0.5
        # Ties pick an index PyTorch does not specify: only distinct slices.
        values = torch.sort(t.detach().movedim(d, -1), dim=-1).values
        if t.shape[d] > 1 and bool((values[..., 1:] == values[..., :-1]).any()):
            raise Skip
        out = (t.min if minimum else t.max)(d, keepdim).values
        return self.step({"op": "maxdim", "x": x, "dim": d, "keepdim": keepdim, "min": minimum}, out)

    def op_matmul(self):
        a = self.pick(lambda t: t.dim() >= 1)
        ta = self.tensors[a]
        k = ta.shape[-1]
        form = self.rng.choice(["vec", "mat", "batch"])
        shape = {"vec": [k], "mat": [k, self.rng.choice([1, 2, 3])], "batch": [self.rng.choice([1, 2]), k, 2]}[form]
        b = self.leaf(shape)
        try:
            out = torch.matmul(ta, self.tensors[b])
        except RuntimeError:
            raise Skip
        return self.step({"op": "matmul", "a": a, "b": b}, out)

    def op_linear(self):
        x = self.pick(lambda t: t.dim() >= 1)
        k = self.tensors[x].shape[-1]
        n = self.rng.choice([1, 2, 3])
        w = self.leaf([n, k])
        b = self.leaf([n]) if self.rng.random() < 0.7 else None
        out = F.linear(self.tensors[x], self.tensors[w], None if b is None else self.tensors[b])
        return self.step({"op": "linear", "x": x, "w": w, "b": b}, out)

    def op_softmax(self):
        x = self.pick(lambda t: t.numel() > 0)
        t = self.tensors[x]
        d = self.dim(t) if t.dim() else 0
        log = self.rng.random() < 0.5
        out = t.log_softmax(d) if log else t.softmax(d)
        return self.step({"op": "softmax", "x": x, "dim": d, "log": log}, out)

    def op_layer_norm(self):
        x = self.pick(lambda t: t.dim() >= 1 and t.numel() > 0)
        t = self.tensors[x]
        k = self.rng.randint(1, min(2, t.dim()))
        norm = list(t.shape[t.dim() - k :])
        w = self.leaf(norm) if self.rng.random() < 0.7 else None
        b = self.leaf(norm) if self.rng.random() < 0.7 else None
        # Not 1e-12: a row of equal elements then has 1/sqrt(eps) = 1e6 times
        # torch's rounding of its mean as gradient (axial's is exactly 0).
        eps = self.rng.choice([1e-5, 0.1])
        out = F.layer_norm(t, norm, None if w is None else self.tensors[w], None if b is None else self.tensors[b], eps)
        return self.step({"op": "layer_norm", "x": x, "k": k, "w": w, "b": b, "eps": eps}, out)

    def index(self, shape, size):
        values = [self.rng.randrange(size) for _ in range(math.prod(shape))]
        return torch.tensor(values, dtype=torch.int64).reshape(shape), {"shape": shape, "values": values}

    def op_index(self):
        kind = self.rng.choice(["embedding", "index_select", "gather"])
        if kind == "embedding":
            table = self.leaf([self.rng.choice([1, 3, 4]), self.rng.choice([1, 2, 3])])
            ids, rec = self.index(self.shape(2), self.tensors[table].shape[0])
            out = F.embedding(ids, self.tensors[table])
            return self.step({"op": "embedding", "x": table, "ids": rec}, out)
        x = self.pick(lambda t: t.dim() >= 1 and t.numel() > 0)
        t = self.tensors[x]
        d = self.dim(t)
        if kind == "index_select":
            idx, rec = self.index([self.rng.randint(0, 4)], t.shape[d])
            return self.step({"op": "index_select", "x": x, "dim": d, "index": rec}, t.index_select(d, idx))
        shape = [self.rng.randint(1, n) if n else 0 for n in t.shape]
        shape[d] = self.rng.randint(0, 4)
        idx, rec = self.index(shape, t.shape[d])
        return self.step({"op": "gather", "x": x, "dim": d, "index": rec}, t.gather(d, idx))

    def mask(self, shape):
        values = [self.rng.random() < 0.4 for _ in range(math.prod(shape))]
        return torch.tensor(values, dtype=torch.bool).reshape(shape), {"shape": shape, "values": values}

    def op_select(self):
        x = self.pick()
        t = self.tensors[x]
        tail = list(t.shape)[self.rng.randint(0, t.dim()) :]
        shape = [1 if self.rng.random() < 0.3 else n for n in tail]
        m, rec = self.mask(shape)
        if self.rng.random() < 0.5:
            value = self.rng.choice([0.0, -1.0, 2.5])
            return self.step({"op": "masked_fill", "x": x, "mask": rec, "value": value}, t.masked_fill(m, value))
        b = self.pick(lambda u: u.shape == t.shape)
        out = torch.where(m, t, self.tensors[b])
        return self.step({"op": "where", "cond": rec, "a": x, "b": b}, out)

    def op_join(self):
        x = self.pick(lambda t: t.dim() >= 1)
        t = self.tensors[x]
        kind = self.rng.choice(["cat", "stack", "split", "chunk"])
        if kind in ("cat", "stack"):
            d = self.dim(t)
            others = [i for i, u in enumerate(self.tensors) if u.shape == t.shape]
            if kind == "cat" and self.rng.random() < 0.5:
                shape = list(t.shape)
                shape[d] = self.rng.randint(0, 3)
                others.append(self.leaf(shape))
            xs = [x] + [self.rng.choice(others) for _ in range(self.rng.randint(0, 2))]
            ts = [self.tensors[i] for i in xs]
            if kind == "stack":
                d = self.rng.randint(-t.dim() - 1, t.dim())
                return self.step({"op": "stack", "xs": xs, "dim": d}, torch.stack(ts, d))
            try:
                out = torch.cat(ts, d)
            except RuntimeError:
                raise Skip
            return self.step({"op": "cat", "xs": xs, "dim": d}, out)
        d = self.dim(t)
        if t.shape[d] == 0:
            raise Skip
        if kind == "split":
            size = self.rng.randint(1, t.shape[d])
            parts = torch.split(t, size, d)
            rec = {"op": "split", "x": x, "size": size, "dim": d}
        else:
            chunks = self.rng.randint(1, 3)
            parts = torch.chunk(t, chunks, d)
            rec = {"op": "chunk", "x": x, "chunks": chunks, "dim": d}
        self.steps.append(rec)
        for p in parts:
            self.add_tensor(p, self.groups[x])
        return len(self.tensors) - 1

    def op_view(self):
        x = self.pick()
        t = self.tensors[x]
        r = t.dim()
        kind = self.rng.choice(
            ["permute", "transpose", "unsqueeze", "squeeze", "reshape", "view", "flatten", "narrow", "slice",
             "select", "expand", "diagonal", "unfold", "as_strided", "contiguous", "movedim", "cumsum", "tri"]
        )
        rec = {"op": kind, "x": x}
        if kind == "permute":
            dims = list(range(r))
            self.rng.shuffle(dims)
            rec["dims"] = dims
            return self.step(rec, t.permute(dims), x)
        if kind == "movedim":
            if r == 0:
                raise Skip
            rec["src"], rec["dst"] = self.rng.randrange(r), self.rng.randrange(r)
            return self.step(rec, t.movedim(rec["src"], rec["dst"]), x)
        if kind == "transpose":
            if r == 0:
                raise Skip
            rec["d0"], rec["d1"] = self.dim(t), self.dim(t)
            return self.step(rec, t.transpose(rec["d0"], rec["d1"]), x)
        if kind == "unsqueeze":
            rec["dim"] = self.rng.randint(-r - 1, r)
            return self.step(rec, t.unsqueeze(rec["dim"]), x)
        if kind == "squeeze":
            if self.rng.random() < 0.5 or r == 0:
                rec["dims"] = None
                return self.step(rec, t.squeeze(), x)
            rec["dims"] = [self.dim(t)]
            return self.step(rec, t.squeeze(rec["dims"]), x)
        if kind in ("reshape", "view", "flatten"):
            n = t.numel()
            if kind == "flatten":
                if r == 0:
                    raise Skip
                a, b = sorted([self.rng.randrange(r), self.rng.randrange(r)])
                rec["start"], rec["end"] = a, b
                out = t.flatten(a, b)
                return self.step(rec, out, x if shares(out, t) else None)
            shapes = [[n], [-1], [1, n], [n, 1]]
            if n % 2 == 0 and n:
                shapes += [[2, n // 2], [-1, 2]]
            rec["shape"] = self.rng.choice(shapes)
            if kind == "view":
                try:
                    return self.step(rec, t.view(rec["shape"]), x)
                except RuntimeError:
                    raise Skip
            out = t.reshape(rec["shape"])
            return self.step(rec, out, x if shares(out, t) else None)
        if kind == "contiguous":
            out = t.contiguous()
            return self.step(rec, out, x if t.is_contiguous() else None)
        if kind in ("narrow", "slice", "select", "unfold", "cumsum"):
            if r == 0:
                raise Skip
            d = self.dim(t)
            n = t.shape[d]
            rec["dim"] = d
            if kind == "narrow":
                start = self.rng.randint(0, n)
                rec["start"], rec["length"] = start, self.rng.randint(0, n - start)
                return self.step(rec, t.narrow(d, start, rec["length"]), x)
            if kind == "slice":
                rec["start"] = self.rng.choice([None, 0, 1, -1])
                rec["end"] = self.rng.choice([None, 2, -1])
                rec["step"] = self.rng.choice([1, 2])
                sl = [slice(None)] * r
                sl[d % r] = slice(rec["start"], rec["end"], rec["step"])
                return self.step(rec, t[tuple(sl)], x)
            if kind == "select":
                if n == 0:
                    raise Skip
                rec["index"] = self.rng.randrange(-n, n)
                return self.step(rec, t.select(d, rec["index"]), x)
            if kind == "cumsum":
                return self.step(rec, t.cumsum(d))
            size = self.rng.randint(0, n)
            rec["size"], rec["step"] = size, self.rng.randint(1, 2)
            return self.step(rec, t.unfold(d, size, rec["step"]), x)
        if kind == "tri":
            if r < 2:
                raise Skip
            rec["op"] = self.rng.choice(["tril", "triu"])
            rec["diagonal"] = self.rng.choice([-1, 0, 1])
            return self.step(rec, getattr(t, rec["op"])(rec["diagonal"]))
        if kind == "expand":
            sizes = [self.rng.choice([2, 3])] if self.rng.random() < 0.4 else []
            sizes += [self.rng.choice([2, 3]) if n == 1 and self.rng.random() < 0.6 else -1 for n in t.shape]
            rec["sizes"] = sizes
            return self.step(rec, t.expand(sizes), x)
        if kind == "diagonal":
            if r < 2:
                raise Skip
            d1, d2 = self.rng.sample(range(r), 2)
            rec["offset"], rec["d1"], rec["d2"] = self.rng.choice([-1, 0, 1]), d1, d2
            return self.step(rec, t.diagonal(rec["offset"], d1, d2), x)
        # as_strided over a dense copy (the same storage on both sides):
        # windows that may overlap.
        if t.numel() == 0:
            raise Skip
        dense = self.step({"op": "dense", "x": x}, t.contiguous().clone())
        n = t.numel()
        size = [self.rng.randint(1, 3), self.rng.randint(1, 2)]
        stride = [self.rng.randint(0, 2), 1]
        offset = self.rng.randint(0, 1)
        need = offset + (size[0] - 1) * stride[0] + (size[1] - 1) * stride[1] + 1
        if need > n:
            raise Skip
        rec.update({"x": dense, "size": size, "stride": stride, "offset": offset})
        return self.step(rec, self.tensors[dense].as_strided(size, stride, offset), dense)

    def op_loss(self):
        kind = self.rng.choice(["cross_entropy", "nll_loss", "mse_loss", "bce_logits"])
        reduction = self.rng.choice(["mean", "sum", "none"])
        if kind in ("mse_loss", "bce_logits"):
            x = self.pick()
            t = self.tensors[x]
            if kind == "mse_loss":
                target = self.pick(lambda u: u.shape == t.shape)
                out = F.mse_loss(t, self.tensors[target], reduction=reduction)
            else:
                src = self.pick(lambda u: u.shape == t.shape)
                target = self.step({"op": "unary", "name": "sigmoid", "x": src}, torch.sigmoid(self.tensors[src]))
                out = F.binary_cross_entropy_with_logits(t, self.tensors[target], reduction=reduction)
            return self.step({"op": kind, "x": x, "target": target, "reduction": reduction}, out)
        x = self.pick(lambda t: t.dim() in (1, 2, 3) and t.numel() > 0 and (t.dim() == 1 or t.shape[1] > 0))
        t = self.tensors[x]
        classes = t.shape[0] if t.dim() == 1 else t.shape[1]
        tshape = [] if t.dim() == 1 else [t.shape[0]] + list(t.shape[2:])
        ignore = self.rng.choice([-100, 0, 1])
        values = [self.rng.randrange(classes) if self.rng.random() < 0.85 else ignore for _ in range(math.prod(tshape))]
        if any(v != ignore and not 0 <= v < classes for v in values):
            raise Skip
        target = torch.tensor(values, dtype=torch.int64).reshape(tshape)
        rec = {"op": kind, "x": x, "target": {"shape": tshape, "values": values}, "ignore_index": ignore,
               "reduction": reduction}
        if kind == "cross_entropy":
            rec["smoothing"] = self.rng.choice([0.0, 0.0, 0.1, 0.3])
            out = F.cross_entropy(t, target, ignore_index=ignore, label_smoothing=rec["smoothing"], reduction=reduction)
        else:
            out = F.nll_loss(t, target, ignore_index=ignore, reduction=reduction)
        return self.step(rec, out)

    def op_inplace(self):
        # A fresh result that no other tensor views (axial refuses writes a
        # view could not see) and that is not a leaf.
        counts = {}
        for g in self.groups:
            counts[g] = counts.get(g, 0) + 1
        cands = [i for i, t in enumerate(self.tensors) if counts[self.groups[i]] == 1
                 and not t.is_leaf and t.is_contiguous()]
        if not cands:
            raise Skip
        x = self.rng.choice(cands)
        t = self.tensors[x]
        kind = self.rng.choice(["add_", "mul_", "masked_fill_"])
        rec = {"op": kind, "x": x}
        if kind == "add_":
            y = self.pick(lambda u: u.shape == t.shape and u is not t)
            rec["y"] = y
            t.add_(self.tensors[y])
        elif kind == "mul_":
            rec["s"] = self.rng.choice([2.0, -0.5])
            t.mul_(rec["s"])
        else:
            m, rec["mask"] = self.mask(list(t.shape))
            t.masked_fill_(m, 0.5)
        self.steps.append(rec)
        return x

    OPS = [
        (op_unary, 10), (op_positive, 5), (op_pow, 3), (op_clamp, 2), (op_activation, 3), (op_binary, 12),
        (op_scalar, 5), (op_reduce, 9), (op_maxdim, 2), (op_matmul, 5), (op_linear, 4), (op_softmax, 5),
        (op_layer_norm, 4), (op_index, 4), (op_select, 4), (op_join, 5), (op_view, 14), (op_loss, 3),
        (op_inplace, 3),
    ]

    def build(self):
        for _ in range(self.rng.randint(1, 2)):
            self.leaf(self.shape())
        last = len(self.tensors) - 1
        ops, weights = zip(*self.OPS)
        n = self.rng.randint(1, 6)
        done = 0
        tries = 0
        while done < n and tries < 60:
            tries += 1
            op = self.rng.choices(ops, weights)[0]
            try:
                last = op(self)
                done += 1
            except Skip:
                continue
        return last


def run(rng):
    """One graph that PyTorch computes with finite values; None to retry."""
    g = Graph(rng)
    try:
        out = g.build()
    except RuntimeError:
        return None
    y = g.tensors[out]
    if not y.requires_grad or not bool(torch.isfinite(y).all()) or (y.numel() and y.abs().max() > 1e4):
        return None
    seed = grid(rng, y.numel(), -1.0, 1.0)
    record = {
        "dtype": g.dtype_name,
        "leaves": g.leaves,
        "steps": g.steps,
        "out": out,
        "seed": seed,
        "value": numbers(y),
    }
    leaves = g.leaf_tensors
    try:
        y.backward(torch.tensor(seed, dtype=g.dtype).reshape(y.shape))
    except RuntimeError as e:
        if "modified by an inplace operation" not in str(e):
            raise
        record["error"] = "modified by an inplace operation"
        return record
    grads = [None if x.grad is None else numbers(x.grad) for x in leaves]
    if any(gr is not None and not all(math.isfinite(v) for v in gr) for gr in grads):
        return None
    if any(gr is not None and max(map(abs, gr), default=0) > 1e5 for gr in grads):
        return None
    record["grads"] = grads
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--graphs", type=int, default=GRAPHS)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = random.Random(SEED)
    graphs = []
    while len(graphs) < args.graphs:
        r = run(rng)
        if r is not None:
            graphs.append(r)
    errors = sum("error" in r for r in graphs)
    data = {"torch": torch.__version__, "seed": SEED, "graphs": graphs}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    steps = sum(len(r["steps"]) for r in graphs)
    print(f"{len(graphs)} graphs, {steps} steps, {errors} in-place errors -> {args.out}")


if __name__ == "__main__":
    main()
