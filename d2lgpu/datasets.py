"""The datasets the course makes: a FashionMNIST stand-in, and loading that costs something.

* :class:`SyntheticFashionMNIST`: a learnable dataset of FashionMNIST's shape, the
  offline fallback of :func:`d2lgpu.data.load_fashion_mnist`;
* :class:`CostlyLoading`: wraps a dataset so that each sample costs what real images
  cost to load: a wait (reading a file) and CPU work (decoding and augmenting,
  :func:`box_blur`), so that the lesson on ``DataLoader`` workers has something for
  them to do.

What it is not: a data-augmentation library.
"""

import math
import time

import torch
from torch.utils.data import Dataset

from ._validate import check_int, check_nonnegative

__all__ = ["FASHION_MNIST_CLASSES", "CostlyLoading", "SyntheticFashionMNIST", "box_blur"]

FASHION_MNIST_CLASSES = (
    "t-shirt",
    "trouser",
    "pullover",
    "dress",
    "coat",
    "sandal",
    "shirt",
    "sneaker",
    "bag",
    "ankle boot",
)

_TEMPLATE_SEED = 20240521  # the class patterns are fixed; `seed` only varies the samples
_MAX_SHIFT = 2  # pixels a sample's pattern may move, so position alone does not give the class
_NOISE_STD = 0.2  # on a [0, 1] scale: visible, but the class pattern still shows through


def _class_templates():
    """Ten fixed 28 x 28 patterns in [0, 1]: a shape of three blobs with a striped texture.

    Like a FashionMNIST garment, each is a bright object on a dark background.
    """
    gen = torch.Generator().manual_seed(_TEMPLATE_SEED)
    coords = torch.arange(28, dtype=torch.float32)
    yy, xx = torch.meshgrid(coords, coords, indexing="ij")
    templates = torch.zeros(10, 28, 28)
    for c in range(10):
        shape = torch.zeros(28, 28)
        for _ in range(3):
            cy, cx = (torch.rand(2, generator=gen) * 14 + 7).tolist()
            sigma = 2.5 + 2.5 * torch.rand((), generator=gen).item()
            shape += torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * sigma**2))
        angle = math.pi * c / 10  # each class has its own stripe direction
        stripes = torch.cos(1.2 * (xx * math.cos(angle) + yy * math.sin(angle)))
        templates[c] = shape.clamp(max=1) * (0.7 + 0.3 * stripes)
    return templates


def _shifted_templates():
    """All class patterns at every shift up to ``_MAX_SHIFT`` pixels: 10 x S x 28 x 28."""
    templates = _class_templates()
    offsets = range(-_MAX_SHIFT, _MAX_SHIFT + 1)
    shifted = [torch.roll(templates, (dy, dx), dims=(1, 2)) for dy in offsets for dx in offsets]
    return torch.stack(shifted, dim=1)


class SyntheticFashionMNIST(Dataset):
    """A learnable stand-in for FashionMNIST: ``n`` 1 x 28 x 28 images in 10 classes.

    Each class has a fixed pattern (three blobs and a stripe texture, the same
    for every seed and for train and test). A sample is its class pattern,
    shifted by up to 2 pixels, scaled by a random brightness and plus Gaussian
    noise, stored as uint8 like the real data. A small CNN gets well above
    chance in one epoch on a few thousand images; the accuracies say nothing
    about real FashionMNIST.

    Everything is drawn from a ``torch.Generator`` seeded from ``seed`` and
    ``train`` (train and test differ), so the same arguments give the same
    data and the global RNG is never touched.

    Items are ``(float32 tensor 1 x H x W in [0, 1], int label)`` with
    ``H = W = resize`` (bilinear) or 28. Attributes: ``data`` (uint8 n x 28 x 28),
    ``targets`` (int64 n), ``classes``, ``source = "synthetic"``.
    """

    source = "synthetic"
    classes = list(FASHION_MNIST_CLASSES)

    def __init__(self, n, *, train=True, seed=0, resize=None):
        check_int("n", n, minimum=1)
        check_int("resize", resize, minimum=1, allow_none=True)
        check_int("seed", seed)
        self.train = bool(train)
        self.resize = resize
        gen = torch.Generator().manual_seed(2 * seed + (0 if self.train else 1))
        shifted_templates = _shifted_templates()
        self.targets = torch.randint(0, 10, (n,), generator=gen)
        self.data = torch.empty(n, 28, 28, dtype=torch.uint8)
        for lo in range(0, n, 10000):  # in chunks, so 60000 images never need 400 MB at once
            hi = min(lo + 10000, n)
            self.data[lo:hi] = self._make_images(shifted_templates, self.targets[lo:hi], gen)

    @staticmethod
    def _make_images(shifted_templates, labels, gen):
        m = len(labels)
        shift = torch.randint(0, shifted_templates.shape[1], (m,), generator=gen)
        brightness = 0.5 + 0.5 * torch.rand(m, 1, 1, generator=gen)
        noise = _NOISE_STD * torch.randn(m, 28, 28, generator=gen)
        noisy = brightness * shifted_templates[labels, shift] + noise
        return (noisy.clamp(0, 1) * 255).round().to(torch.uint8)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, index):
        image = self.data[index].to(torch.float32).div(255).unsqueeze(0)
        if self.resize is not None:
            size = (self.resize, self.resize)
            image = torch.nn.functional.interpolate(image[None], size=size, mode="bilinear")[0]
        return image, int(self.targets[index])


def box_blur(image, rounds):
    """``rounds`` 3 x 3 box blurs of a C x H x W float image (zero padding)."""
    kernel = torch.full((image.shape[0], 1, 3, 3), 1 / 9, dtype=image.dtype)
    out = image[None]
    for _ in range(rounds):
        out = torch.nn.functional.conv2d(out, kernel, padding=1, groups=image.shape[0])
    return out[0]


class CostlyLoading(Dataset):
    """Wrap ``dataset`` so that each sample costs a read and a decode, as real images do.

    ``read_s``: seconds each sample *waits* (``time.sleep``), standing for a
    file read from a slow disk or the network: the process is idle meanwhile,
    so waits of several worker processes overlap even on one core.

    ``decode_rounds``: rounds of a 3 x 3 box blur over the image, standing for
    decoding and augmenting it: real arithmetic, so it needs a free core, and
    workers speed it up at most by the number of cores they get. The blur
    changes the image (:func:`box_blur` gives the same result), and
    the label is passed through unchanged.
    """

    def __init__(self, dataset, *, read_s=0.0, decode_rounds=0):
        check_nonnegative("read_s", read_s)
        check_int("decode_rounds", decode_rounds, minimum=0)
        self.dataset = dataset
        self.read_s = float(read_s)
        self.decode_rounds = decode_rounds

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        image, label = self.dataset[index]
        if self.read_s:
            time.sleep(self.read_s)  # waiting for the "file": no CPU used
        return box_blur(image, self.decode_rounds), label
