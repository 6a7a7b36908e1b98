"""all-MiniLM-L6-v2 in ONNX Runtime, exported the way a deploying team
exports it: transformers' BertModel over the same weights as
benches/model.rs (target/minilm/, bench/fetch_minilm.sh), through
`torch.onnx.export` (opset 17, dynamic batch and sequence axes), the
sentence embedding (mean pooling under the mask, L2 normalisation) in the
graph; and its int8 form by ONNX Runtime's own dynamic quantization
(per-channel int8 weights, MatMul only).

    bench/.venv/bin/python bench/ort_minilm.py   # export (once) and check both models
    bench/.venv/bin/python bench/ort_minilm.py --json out.json   # time them (bench/compare.py does)

The models are written to target/minilm/onnx/ (ignored). Sessions run with 2
intra-op threads, 1 inter-op thread, every graph optimisation, on the CPU
execution provider. Needs bench/setup.sh's onnxruntime, onnx and transformers.
"""

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
import torch

import torch_model

ROOT = Path(__file__).resolve().parent.parent
MODEL_DIR = torch_model.WEIGHTS.parent
OUT = ROOT / "target" / "minilm" / "onnx"
FP32 = OUT / "minilm.onnx"
INT8 = OUT / "minilm-int8.onnx"
REFERENCE = ROOT / "tests" / "data" / "minilm_reference.json"
THREADS = 2


class Embedder(torch.nn.Module):
    """`forward(ids, mask)`: the unit-length mean of the last hidden states
    under the mask (transformers 5's BertModel cannot be exported called
    positionally: it takes `use_cache` second)."""

    def __init__(self, bert):
        super().__init__()
        self.bert = bert

    def forward(self, ids, mask):
        hidden = self.bert(input_ids=ids, attention_mask=mask).last_hidden_state
        keep = mask.unsqueeze(-1).to(hidden.dtype)
        mean = (hidden * keep).sum(1) / keep.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(mean, p=2.0, dim=1)


def export():
    """Writes the fp32 and int8 models unless they exist."""
    if FP32.exists() and INT8.exists():
        return
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import BertModel

    OUT.mkdir(parents=True, exist_ok=True)
    # The eager attention exports as plain MatMul/Softmax nodes, which ONNX
    # Runtime's optimiser takes as they are; the default (SDPA) exports the
    # mask through IsNaN/Where nodes around each softmax.
    bert = BertModel.from_pretrained(
        str(MODEL_DIR), add_pooling_layer=False, attn_implementation="eager"
    ).eval()
    ids, mask = torch_model.batch(2, 16)
    with torch.inference_mode():
        torch.onnx.export(
            Embedder(bert),
            (ids, mask),
            str(FP32),
            input_names=["input_ids", "attention_mask"],
            output_names=["embeddings"],
            dynamic_axes={"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"}},
            opset_version=17,
            dynamo=False,
        )
    quantize_dynamic(
        str(FP32),
        str(INT8),
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=["MatMul"],
    )


def session(path):
    """An ONNX Runtime session of `path`, 2 threads, every optimisation."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def runner(sess, ids, mask):
    """A call of `sess` on the batch, inputs converted once."""
    feed = {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
    return lambda: sess.run(None, feed)[0]


def cases():
    """(name, function) pairs of ONNX Runtime's model cases, none without
    the weights or onnxruntime."""
    if not torch_model.WEIGHTS.exists():
        return []
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        print("onnxruntime: skipped (not installed; run bench/setup.sh)", file=sys.stderr)
        return []
    export()
    out = []
    for kind, path in (("minilm", FP32), ("minilm_int8", INT8)):
        sess = session(path)
        for b, s in [(8, 40), (32, 128)]:
            ids, mask = torch_model.batch(b, s)
            out.append((f"{kind}/{b}x{s}", runner(sess, ids, mask)))
    return out


def cosines(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1))


def check():
    """Both models on the test sentences against the reference embeddings:
    the worst sentence's cosine and the largest difference."""
    export()
    ref = json.loads(REFERENCE.read_text())
    ids = torch.tensor(ref["input_ids"])
    mask = torch.tensor(ref["attention_mask"])
    want = np.array(ref["embeddings"])
    for name, path in (("fp32", FP32), ("int8", INT8)):
        got = runner(session(path), ids, mask)()
        cos = cosines(got, want)
        print(
            f"onnxruntime {name}: worst cosine {cos.min():.6f} (per sentence {np.round(cos, 6).tolist()}), "
            f"max |diff| {np.abs(got - want).max():.2e}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="time the cases and write the results here")
    parser.add_argument("--filter", default="", help="time only cases matching this regex")
    parser.add_argument("--min-reps", type=int, default=10)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--warmup-seconds", type=float, default=0.5)
    args = parser.parse_args()
    if not args.json:
        check()
        return
    import onnxruntime
    from torch_cases import timed

    results = {}
    for name, fn in cases():
        if re.search(args.filter, name):
            results[name] = timed(fn, args.min_reps, args.min_seconds, args.warmup_seconds)
            print(f"{name:32} {results[name] * 1e3:9.3f} ms", file=sys.stderr)
    report = {"onnxruntime": onnxruntime.__version__, "threads": THREADS, "cases": results}
    Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
