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
from .hardware import peak_flops as datasheet_peak

__all__ = [
    "AMP_SIZES",
    "AUTOCAST_BYTES_PER_PARAM",
    "CLIP_BYTES_PER_PARAM",
    "MLP",
    "OPTIMIZER_BYTES_PER_PARAM",
    "SCALER_BYTES_PER_PARAM",
    "SmallCNN",
    "amp_gpu_batch",
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
    H100, that size gains less from 16 bits than the chapter's.
    """
    check_int("width", width, minimum=1)
    check_int("depth", depth, minimum=1)
    layers: list[nn.Module] = []
    for i in range(depth):
        if i:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(width, width))
    return nn.Sequential(*layers)


# Sizes of the mixed-precision chapter's model and data, per device type. On a GPU, batches
# large enough that the matrix products outweigh the memory traffic outside them even at bf16
# speed (linear_stack_cost; tests/test_models.py checks it); on a CPU a toy, because 16-bit
# products there can be very slow. The learning rate goes with the width.
AMP_SIZES = {
    "cuda": {"width": 2048, "batch": 16384, "lr": 5e-4},
    "cpu": {"width": 128, "batch": 64, "lr": 1e-3},
}

# Bytes per parameter that a training step moves outside the matrix products, all fp32 whatever
# the precision of the products (autocast keeps the weights, their gradients and the optimizer's
# state in fp32). Each counts one read or write of each tensor, as a fused kernel does; PyTorch's
# default multi-tensor ("foreach") Adam makes several passes over the state and moves more.
OPTIMIZER_BYTES_PER_PARAM = {
    "sgd": 12,  # plain SGD, no momentum: read the weight and its gradient, write the weight
    "adam": 28,  # read the weight, its gradient and both moments; write the weight and moments
}
# clip_grad_norm_: read every gradient for the total norm, then read and rescale it.
CLIP_BYTES_PER_PARAM = 12
# Under autocast, every step: each fp32 weight cast to a 16-bit copy (read 4, write 2 bytes), and
# each 16-bit weight gradient cast back to fp32 (read 2, write 4).
AUTOCAST_BYTES_PER_PARAM = 12
# GradScaler.unscale_ (fp16): read and write every gradient once more.
SCALER_BYTES_PER_PARAM = 8


# A GPU gets the GPU batch unless one step of it needs more than these (amp_gpu_batch):
AMP_MEMORY_SHARE = 0.25  # a quarter of the GPU's memory: the chapter keeps several runs around
AMP_STEP_SECONDS = 0.25  # fp32 products of one step at the datasheet peak (the runs take ~100)
AMP_MIN_BATCH = 1024


def _amp_step_bytes(width: int, batch: int) -> int:
    """Memory a fp32 step of the chapter holds: its 4 batches of inputs and targets, the
    activations and their gradients, weights, gradients and Adam's two moments."""
    cost = linear_stack_cost(width, batch)
    return 2 * 4 * batch * width * 4 + 2 * cost["activation_bytes"] + 4 * 4 * cost["params"]


def amp_gpu_batch(total_memory: int, fp32_flops: float | None, width: int | None = None) -> int:
    """The chapter's batch on a GPU of ``total_memory`` bytes and datasheet ``fp32_flops``.

    ``AMP_SIZES["cuda"]``'s batch, halved (down to :data:`AMP_MIN_BATCH`) while one step
    would hold more than :data:`AMP_MEMORY_SHARE` of the memory, or while its fp32 products
    at ``fp32_flops`` (``None``: no datasheet entry, memory alone decides) would take more
    than :data:`AMP_STEP_SECONDS`. An H100 or a T4 keeps the full batch; a smaller GPU
    gets less.
    """
    check_int("total_memory", total_memory, minimum=1)
    if fp32_flops is not None and not fp32_flops > 0:
        raise ValueError(f"fp32_flops must be a positive FLOP/s rate or None, got {fp32_flops!r}")
    width = int(AMP_SIZES["cuda"]["width"]) if width is None else width
    batch = int(AMP_SIZES["cuda"]["batch"])

    def too_big(b: int) -> bool:
        slow = fp32_flops is not None and (
            linear_stack_cost(width, b)["flops"] / fp32_flops > AMP_STEP_SECONDS
        )
        return slow or _amp_step_bytes(width, b) > AMP_MEMORY_SHARE * total_memory

    while batch > AMP_MIN_BATCH and too_big(batch):
        batch //= 2
    return batch


def amp_sizes(device) -> tuple[int, int, float]:
    """``(width, batch, lr)`` of the mixed-precision chapter on ``device`` (CUDA or not).

    On a GPU the batch is :func:`amp_gpu_batch`'s for its memory and datasheet fp32 peak
    (``torch.cuda.get_device_properties``, asked now; :mod:`d2lgpu.hardware`'s table).
    Where torch sees no GPU, ``"cuda"`` gets ``AMP_SIZES["cuda"]``: the size the chapter's
    GPU references were recorded at, for reasoning about a GPU from a CPU.
    """
    kind = "cuda" if torch.device(device).type == "cuda" else "cpu"
    sizes = AMP_SIZES[kind]
    width, batch, lr = int(sizes["width"]), int(sizes["batch"]), float(sizes["lr"])
    if kind == "cuda" and torch.cuda.is_available():
        index = torch.device(device).index
        if index is not None and index >= torch.cuda.device_count():
            raise ValueError(
                f"device {str(device)!r}: torch sees {torch.cuda.device_count()} GPU(s) here, "
                f"cuda:0 to cuda:{torch.cuda.device_count() - 1}"
            )
        props = torch.cuda.get_device_properties(device)
        batch = amp_gpu_batch(props.total_memory, datasheet_peak(props.name, "fp32"), width)
    return width, batch, lr


def linear_stack_cost(
    width: int,
    batch: int,
    depth: int = 3,
    *,
    optimizer: str = "adam",
    clip: bool = True,
    autocast: bool = False,
    scaler: bool = False,
) -> dict:
    """The arithmetic of one training step of :func:`linear_stack` on a batch.

    The step is the mixed-precision chapter's: fp32 inputs that need no gradient, an MSE
    loss against fp32 targets, ``optimizer`` (``"sgd"``: plain SGD without momentum, as in
    PyTorch's AMP recipe; ``"adam"``), ``clip_grad_norm_`` if ``clip``, the products and
    activations in 16 bits if ``autocast`` (bf16 and fp16 move the same bytes), and a
    ``GradScaler``'s unscaling if ``scaler``. It returns:

    ``flops``: the matrix products, ``(6 * depth - 2) * batch * width^2``: per layer 2 for
    the forward product, 2 for the weight gradient and 2 for the input gradient, except
    the first layer, whose input needs no gradient (16 for three layers, not 18);
    ``params``;
    ``optimizer_bytes``: the optimizer step, clipping and unscaling, all fp32
    (:data:`OPTIMIZER_BYTES_PER_PARAM`, :data:`CLIP_BYTES_PER_PARAM`,
    :data:`SCALER_BYTES_PER_PARAM` per parameter), which 16-bit products do not shrink;
    ``cast_bytes``: autocast's casts of the weights and of their gradients
    (:data:`AUTOCAST_BYTES_PER_PARAM` per parameter, 0 without autocast);
    ``elementwise_bytes``: the element-wise work on the activations, read and written once
    each: ReLU forward (read, write) and backward (read the gradient and the saved output,
    write), the bias gradients (read the output gradient), the fp32 loss (read the output
    and the targets) and its gradient (read both, write), and under autocast the casts of
    the input to 16 bits, of the output to fp32 and of its gradient back;
    ``activation_bytes``: the activations kept for the backward pass, one batch x width
    tensor per layer (2 bytes an element under autocast, else 4).

    What it leaves out, so that :func:`step_time_bound` is optimistic: the products' own
    reads and writes (they overlap with the products' arithmetic), kernel launches, and
    any pass a real kernel adds to these counts.
    """
    for name, value in (("width", width), ("batch", batch), ("depth", depth)):
        check_int(name, value, minimum=1)
    if optimizer not in OPTIMIZER_BYTES_PER_PARAM:
        known = ", ".join(repr(k) for k in OPTIMIZER_BYTES_PER_PARAM)
        raise ValueError(f"optimizer must be one of {known}, got {optimizer!r}")
    params = depth * (width * width + width)
    per_param = (
        OPTIMIZER_BYTES_PER_PARAM[optimizer]
        + CLIP_BYTES_PER_PARAM * bool(clip)
        + SCALER_BYTES_PER_PARAM * bool(scaler)
    )
    size = 2 if autocast else 4  # bytes of an activation element
    elements = batch * width  # one activation tensor
    per_element = (
        (depth - 1) * (2 + 3) * size  # ReLU forward and backward, between the layers
        + depth * size  # bias gradients: a sum over the batch of each output gradient
        + 20  # fp32 MSE: read output and targets (8); gradient: read both, write (12)
        + (3 * (4 + 2) if autocast else 0)  # casts: input, output, output gradient
    )
    return {
        "flops": (6 * depth - 2) * batch * width * width,
        "params": params,
        "optimizer_bytes": per_param * params,
        "cast_bytes": AUTOCAST_BYTES_PER_PARAM * params if autocast else 0,
        "elementwise_bytes": per_element * elements,
        "activation_bytes": size * elements * depth,
    }


def step_time_bound(cost: dict, peak_flops: float, bandwidth: float) -> float:
    """Seconds a step needs at least: the products of ``cost`` (:func:`linear_stack_cost`) at
    ``peak_flops``, plus its optimizer, cast and element-wise bytes at ``bandwidth`` (bytes/s).

    Optimistic: real products reach only part of the datasheet peak, and the counts leave
    out launches and the products' own memory traffic. Ratios between precisions are what
    it is for."""
    if peak_flops <= 0 or bandwidth <= 0:
        raise ValueError(f"peak_flops and bandwidth must be > 0, got {peak_flops}, {bandwidth}")
    moved = cost["optimizer_bytes"] + cost["cast_bytes"] + cost["elementwise_bytes"]
    return cost["flops"] / peak_flops + moved / bandwidth
