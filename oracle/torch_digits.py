"""A small network trained on scikit-learn's digits in PyTorch, for
`examples/digits` to train the same way.

The data: `target/digits/digits.csv` (`bash bench/fetch_digits.sh`), 1797
8x8 images with pixels 0 to 16, divided by 16. A seeded permutation puts
1437 images in the training set and 360 in the held-out set; step `s`
(from 0) trains on the training images `(64·s + k) mod 1437`, k < 64.
The network: Linear(64, 64), ReLU, Linear(64, 10), PyTorch's default
initialisation (seeded); the loss: mean cross-entropy; the optimizer:
AdamW(lr=1e-2) (weight decay 1e-2), float32, 200 steps.

Writes the permutation, the initial weights, the loss of every step and
the held-out accuracy to `tests/data/torch_digits.json`; `tests/digits.rs`
trains `examples/digits` from the same weights and compares.

    bash bench/fetch_digits.sh
    bench/.venv/bin/python oracle/torch_digits.py
"""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "target/digits/digits.csv"
OUT = ROOT / "tests/data/torch_digits.json"

SEED = 20_261_206
TRAIN = 1437
BATCH = 64
HIDDEN = 64
STEPS = 200
LR = 1e-2


def main():
    rows = np.loadtxt(DATA, delimiter=",", dtype=np.float32)
    x = torch.from_numpy(rows[:, :64] / 16.0)
    y = torch.from_numpy(rows[:, 64].astype(np.int64))
    torch.manual_seed(SEED)
    perm = torch.randperm(len(rows))
    train, held = perm[:TRAIN], perm[TRAIN:]
    hidden = torch.nn.Linear(64, HIDDEN)
    out = torch.nn.Linear(HIDDEN, 10)
    params = [hidden.weight, hidden.bias, out.weight, out.bias]
    start = [p.detach().flatten().tolist() for p in params]
    opt = torch.optim.AdamW(params, lr=LR, foreach=False)
    losses = []
    for step in range(STEPS):
        batch = train[(torch.arange(BATCH) + BATCH * step) % TRAIN]
        logits = out(torch.relu(hidden(x[batch])))
        loss = F.cross_entropy(logits, y[batch])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        predicted = out(torch.relu(hidden(x[held]))).argmax(-1)
        accuracy = (predicted == y[held]).float().mean().item()
    OUT.write_text(
        json.dumps(
            {
                "torch": torch.__version__,
                "permutation": perm.tolist(),
                "train": TRAIN,
                "batch": BATCH,
                "lr": LR,
                "start": start,
                "losses": losses,
                "accuracy": accuracy,
            }
        )
        + "\n"
    )
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, held-out accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
