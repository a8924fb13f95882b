"""The small image classifiers the course trains on FashionMNIST-shaped input.

What it is for: three classifiers whose cost spans the range the lessons need
(:class:`MLP` < :class:`SmallCNN` < :func:`resnet18_fashion`), which take
``B x 1 x 28 x 28`` float input and return ``B x num_classes`` logits;
:func:`linear_stack`, the square ``width -> width`` stack the mixed-precision
chapter and the bench time; and :func:`count_parameters`.

What it is not: a model zoo or a source of pretrained weights. Nothing here
downloads anything, and layers are built on the CPU; the caller moves the model
with ``net.to(device)``. Weight initialisation uses PyTorch's global RNG, like
any ``nn.Module``: seed it yourself (``torch.manual_seed``) for repeatable runs.

Importing this module is cheap: torchvision is imported inside
:func:`resnet18_fashion` only.
"""

from torch import nn

from ._validate import check_int

__all__ = ["MLP", "SmallCNN", "count_parameters", "linear_stack", "resnet18_fashion"]


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
    times: all matrix products, so it shows what low precision buys. At GPU
    size (width 4096, batch 512) it is PyTorch's AMP recipe's model.
    """
    check_int("width", width, minimum=1)
    check_int("depth", depth, minimum=1)
    layers = []
    for i in range(depth):
        if i:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(width, width))
    return nn.Sequential(*layers)
