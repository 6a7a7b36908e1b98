#!/usr/bin/env bash
# Makes bench/.venv: PyTorch (used on the CPU), numpy, h5py and safetensors
# (the reference readers of the storage formats' round trips), maturin
# (which builds the Python extension module), and ONNX Runtime with onnx and
# transformers (the inference anchor of bench/ort_minilm.py: MiniLM exported
# from transformers' BertModel), from PyPI only.
#
# PyPI's Linux torch wheel is the CUDA build; its shared libraries link against
# the CUDA runtime libraries, so `import torch` fails without them even on a
# machine with no GPU. This installs torch without its declared dependencies,
# then only what importing and running it needs: the pure-Python packages and
# the CUDA runtime wheels its libraries link against, at the versions this
# torch pins. Left out: triton (torch.compile), cuda-bindings, cusolver (GPU
# linear algebra, loaded on first use) and nvtx: about 2.3 GB to download
# (4 GB on disk) where a plain `pip install torch` fetches 0.5 GB more.
set -euo pipefail

bench="$(cd "$(dirname "$0")" && pwd)"
venv="$bench/.venv"
python="${PYTHON:-python3}"

torch_version="2.15.0"
runtime=(
    "nvidia-cuda-runtime==13.2.86.*"
    "nvidia-cuda-cupti==13.2.86.*"
    "nvidia-cuda-nvrtc==13.2.86.*"
    "nvidia-cublas==13.4.1.3.*"
    "nvidia-cufft==12.2.0.57.*"
    "nvidia-cufile==1.17.1.22.*"
    "nvidia-cusparse==12.7.10.12.*"
    "nvidia-nvjitlink>=13.2.86,<14"
    "nvidia-cudnn-cu13==9.26.0.51"
    "nvidia-cusparselt-cu13==0.8.1"
    "nvidia-nccl-cu13==2.30.7"
    "nvidia-nvshmem-cu13==3.7.2"
)

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip install --disable-pip-version-check --no-cache-dir --quiet)
"${pip[@]}" --no-deps "torch==$torch_version" "${runtime[@]}"
"${pip[@]}" filelock "typing-extensions>=4.13" "sympy>=1.13.3" "networkx>=2.5.1" \
    jinja2 "fsspec>=0.8.5" numpy h5py safetensors "maturin>=1.16,<2"
"${pip[@]}" "onnxruntime==1.32.0" onnx "transformers==5.23.0"

"$venv/bin/python" - <<'PY'
import h5py, numpy, onnxruntime, safetensors, torch, transformers
x = torch.arange(6.0).reshape(2, 3)
assert (x @ x.t()).tolist() == [[5.0, 14.0], [14.0, 50.0]]
print(f"torch {torch.__version__} (CUDA available: {torch.cuda.is_available()}), numpy {numpy.__version__}, "
      f"h5py {h5py.__version__}, safetensors {safetensors.__version__}, "
      f"onnxruntime {onnxruntime.__version__}, transformers {transformers.__version__}: ok")
PY
