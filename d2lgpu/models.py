"""The models the chapters train, and the arithmetic of the mixed-precision one.

What it is for: three image classifiers for FashionMNIST-shaped input whose
cost spans the range the lessons need (:class:`MLP` < :class:`SmallCNN` <
:func:`resnet18_fashion`; ``B x 1 x 28 x 28`` float input, ``B x num_classes``
logits), :func:`count_parameters`, and the mixed-precision chapter's
:func:`linear_stack` with its sizes (:func:`amp_sizes`) and the FLOPs and bytes
of its training step (:func:`linear_stack_cost`, :func:`step_time_bound`).

What it is not: a model zoo or a source of pretrained weights. Nothing here
downloads anything, and layers are built on the CPU; the caller moves the model
with ``net.to(device)``. Weight initialisation uses PyTorch's global RNG, like
any ``nn.Module``: seed it yourself (``torch.manual_seed``) for repeatable runs.

Importing this module is cheap: torchvision is imported inside
:func:`resnet18_fashion` only.
"""

import torch
from torch import nn

from ._validate import check_int

__all__ = [
    "AMP_SIZES",
    "MLP",
    "OPTIMIZER_BYTES_PER_PARAM",
    "SmallCNN",
    "amp_sizes",
    "count_parameters",
    "linear_stack",
    "linear_stack_cost",
    "resnet18_fashion",
    "step_time_bound",
]


class SmallCNN(nn.Module):
    """A LeNet-like CNN: two 5x5 conv + ReLU + 2x2 max-pool stages, then two linear layers.

    Channels are ``width`` and ``2 * width``, the hidden linear layer has
    ``8 * width`` units. Built for 1 x 28 x 28 input; an adaptive average pool
    to 5 x 5 (a no-op at 28 x 28) lets other sizes through too. No BatchNorm and
    no dropout, so the forward pass has no hidden state or randomness: the
    distributed lessons rely on that to compare runs exactly.
    """

    def __init__(self, num_classes=10, width=16):
        super().__init__()
        check_int("num_classes", num_classes, minimum=1)
        check_int("width", width, minimum=1)
        self.features = nn.Sequential(
            nn.Conv2d(1, width, kernel_size=5, padding=2),  # 28 x 28
            nn.ReLU(),
            nn.MaxPool2d(2),  # 14 x 14
            nn.Conv2d(width, 2 * width, kernel_size=5),  # 10 x 10
            nn.ReLU(),
            nn.MaxPool2d(2),  # 5 x 5
            nn.AdaptiveAvgPool2d(5),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(2 * width * 5 * 5, 8 * width),
            nn.ReLU(),
            nn.Linear(8 * width, num_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x))


class MLP(nn.Sequential):
    """A multilayer perceptron: flatten, then ``Linear + ReLU`` per entry of ``hidden``, then a linear head."""

    def __init__(self, in_features=784, hidden=(256,), num_classes=10):
        check_int("in_features", in_features, minimum=1)
        check_int("num_classes", num_classes, minimum=1)
        if isinstance(hidden, int | str) or not hasattr(hidden, "__iter__"):
            raise ValueError(f"hidden must be a sequence of ints >= 1, got {hidden!r}")
        for i, h in enumerate(hidden):
            check_int(f"hidden[{i}]", h, minimum=1)
        layers = [nn.Flatten()]
        width = in_features
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, num_classes))
        super().__init__(*layers)


def resnet18_fashion(num_classes=10):
    """torchvision's ResNet-18, untrained, adapted to 1 x 28 x 28 input.

    The stem becomes a 1-channel 3x3 stride-1 convolution and the max-pool is
    removed, so a 28 x 28 image is not shrunk to 7 x 7 before the first block.
    ``weights=None``: nothing is downloaded.
    """
    from torchvision.models import resnet18

    check_int("num_classes", num_classes, minimum=1)
    net = resnet18(weights=None, num_classes=num_classes)
    net.conv1 = nn.Conv2d(1, 64, kernel_size=3, stride=1, padding=1, bias=False)
    # Same initialisation torchvision gives the convolution it replaces.
    nn.init.kaiming_normal_(net.conv1.weight, mode="fan_out", nonlinearity="relu")
    net.maxpool = nn.Identity()
    return net


def count_parameters(net, *, trainable_only=False):
    """Number of parameter elements in ``net`` (only those with ``requires_grad`` if ``trainable_only``)."""
    if not isinstance(net, nn.Module):
        raise TypeError(f"net must be a torch.nn.Module, got {type(net).__name__}")
    return sum(p.numel() for p in net.parameters() if p.requires_grad or not trainable_only)


def linear_stack(width: int, depth: int = 3) -> nn.Sequential:
    """``depth`` ``Linear(width, width)`` layers with a ReLU between consecutive ones.

    The mixed-precision chapter's model, and the one ``python -m d2lgpu bench``
    times, at the sizes of :func:`amp_sizes`. Width 4096 with batches of 512 is
    PyTorch's AMP recipe's model; :func:`linear_stack_cost` shows why, on an
    H100, that size gains little from 16 bits.
    """
    check_int("width", width, minimum=1)
    check_int("depth", depth, minimum=1)
    layers = []
    for i in range(depth):
        if i:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(width, width))
    return nn.Sequential(*layers)


# Sizes of the mixed-precision chapter's model and data, per device type. On a GPU, batches
# large enough that the matrix products outweigh the optimizer's memory traffic even at bf16
# speed (linear_stack_cost; tests/test_models.py checks it); on a CPU a toy, because 16-bit
# products there can be very slow. The learning rate goes with the width.
AMP_SIZES = {
    "cuda": {"width": 2048, "batch": 16384, "lr": 5e-4},
    "cpu": {"width": 128, "batch": 64, "lr": 1e-3},
}

# Bytes per parameter that a training step moves outside the matrix products, whatever the
# precision of the products: Adam reads the weight, gradient and two moments and writes the
# weight and both moments (7 x 4 bytes, all fp32 under autocast), and gradient clipping reads
# the gradient twice and writes it once (3 x 4). A lower bound: real kernels move more.
OPTIMIZER_BYTES_PER_PARAM = 40


def amp_sizes(device) -> tuple[int, int, float]:
    """``(width, batch, lr)`` of the mixed-precision chapter on ``device`` (CUDA or not)."""
    kind = "cuda" if torch.device(device).type == "cuda" else "cpu"
    sizes = AMP_SIZES[kind]
    return sizes["width"], sizes["batch"], sizes["lr"]


def linear_stack_cost(width: int, batch: int, depth: int = 3) -> dict:
    """The arithmetic of one training step of :func:`linear_stack` on a batch.

    ``flops``: 6 x batch x width^2 per layer (2 for the forward product, 4 for
    the two backward ones); ``params``; ``optimizer_bytes``: the memory traffic
    outside the products (:data:`OPTIMIZER_BYTES_PER_PARAM` per parameter),
    which 16-bit products do not shrink; ``activation_bytes``: the fp32
    activations kept for the backward pass (one batch x width tensor per layer).
    """
    for name, value in (("width", width), ("batch", batch), ("depth", depth)):
        check_int(name, value, minimum=1)
    params = depth * (width * width + width)
    return {
        "flops": 6 * batch * width * width * depth,
        "params": params,
        "optimizer_bytes": OPTIMIZER_BYTES_PER_PARAM * params,
        "activation_bytes": 4 * batch * width * depth,
    }


def step_time_bound(cost: dict, peak_flops: float, bandwidth: float) -> float:
    """Seconds a step needs at least: its products at ``peak_flops`` plus the optimizer's
    bytes at ``bandwidth`` (bytes/s). Real steps are slower; ratios between precisions are
    what this is for."""
    if peak_flops <= 0 or bandwidth <= 0:
        raise ValueError(f"peak_flops and bandwidth must be > 0, got {peak_flops}, {bandwidth}")
    return cost["flops"] / peak_flops + cost["optimizer_bytes"] / bandwidth
