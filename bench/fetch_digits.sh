#!/usr/bin/env bash
# Fetches scikit-learn's digits (1797 8x8 images of handwritten digits, the
# file sklearn/datasets/data/digits.csv.gz inside the scikit-learn 1.9.1
# wheel from PyPI) into target/digits/digits.csv (git-ignored), for
# examples/digits.rs, tests/digits.rs and oracle/torch_digits.py. Each row:
# 64 pixel values (0 to 16), then the label. Needs no scikit-learn install.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=target/digits
if [[ -f "$DEST/digits.csv" ]]; then
    echo "digits already in $DEST"
    exit 0
fi
PYTHON=python3
[[ -x bench/.venv/bin/python ]] && PYTHON=bench/.venv/bin/python
mkdir -p "$DEST"
"$PYTHON" -m pip download --no-deps --only-binary=:all: --quiet scikit-learn==1.9.1 -d "$DEST"
"$PYTHON" - "$DEST" <<'PY'
import gzip, pathlib, sys, zipfile
dest = pathlib.Path(sys.argv[1])
wheel = next(dest.glob("scikit_learn-1.9.1-*.whl"))
with zipfile.ZipFile(wheel) as z:
    data = gzip.decompress(z.read("sklearn/datasets/data/digits.csv.gz"))
(dest / "digits.csv").write_bytes(data)
wheel.unlink()
PY
echo "digits in $DEST/digits.csv"
