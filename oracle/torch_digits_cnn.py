"""A small convolutional network trained on scikit-learn's digits in
PyTorch, for `examples/digits_cnn` to train the same way.

The data and split are `oracle/torch_digits.py`'s: `target/digits/digits.csv`
(`bash bench/fetch_digits.sh`), pixels divided by 16, as 1×8×8 images (NCHW);
a seeded permutation puts 1437 images in the training set and 360 in the
held-out set; step `s` (from 0) trains on the training images
`(64·s + k) mod 1437`, k < 64.
The network: Conv2d(1, 8, 3, padding=1, bias=False) (a bias before batch
norm has no effect but a gradient of rounding noise, which Adam would
turn into steps), BatchNorm2d(8) (training mode:
batch statistics, running statistics updated), ReLU, MaxPool2d(2),
Conv2d(8, 16, 3, padding=1), ReLU, MaxPool2d(2), flatten (16·2·2),
Linear(64, 10); PyTorch's default
initialisation (seeded). The loss: mean cross-entropy; the optimizer:
AdamW(lr=1e-2) (weight decay 1e-2), float32, 200 steps. The held-out
accuracy is measured in eval mode (the running statistics).

Writes the permutation, the initial weights, the loss of every step, the
final running statistics and the held-out accuracy to
`tests/data/torch_digits_cnn.json`; `tests/digits_cnn.rs` trains
`examples/digits_cnn` from the same weights and compares.

    bash bench/fetch_digits.sh
    bench/.venv/bin/python oracle/torch_digits_cnn.py
"""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "target/digits/digits.csv"
OUT = ROOT / "tests/data/torch_digits_cnn.json"

SEED = 20_261_206
TRAIN = 1437
BATCH = 64
STEPS = 200
LR = 1e-2


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.bn(self.conv1(x))), 2)
        h = F.max_pool2d(F.relu(self.conv2(h)), 2)
        return self.fc(h.flatten(1))


def main():
    rows = np.loadtxt(DATA, delimiter=",", dtype=np.float32)
    x = torch.from_numpy(rows[:, :64] / 16.0).reshape(-1, 1, 8, 8)
    y = torch.from_numpy(rows[:, 64].astype(np.int64))
    torch.manual_seed(SEED)
    perm = torch.randperm(len(rows))
    train, held = perm[:TRAIN], perm[TRAIN:]
    model = Cnn()
    params = list(model.parameters())
    start = [p.detach().flatten().tolist() for p in params]
    opt = torch.optim.AdamW(params, lr=LR, foreach=False)
    losses = []
    model.train()
    for step in range(STEPS):
        batch = train[(torch.arange(BATCH) + BATCH * step) % TRAIN]
        loss = F.cross_entropy(model(x[batch]), y[batch])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        predicted = model(x[held]).argmax(-1)
        accuracy = (predicted == y[held]).float().mean().item()
    OUT.write_text(
        json.dumps(
            {
                "torch": torch.__version__,
                "permutation": perm.tolist(),
                "train": TRAIN,
                "batch": BATCH,
                "lr": LR,
                "names": [n for n, _ in model.named_parameters()],
                "start": start,
                "losses": losses,
                "running_mean": model.bn.running_mean.tolist(),
                "running_var": model.bn.running_var.tolist(),
                "accuracy": accuracy,
            }
        )
        + "\n"
    )
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, held-out accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
