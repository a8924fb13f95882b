"""Fashion-MNIST data loaders for the course, with an honest offline fallback.

What it is for: one call, :func:`load_fashion_mnist`, that gives a train and a
test ``DataLoader`` of ``(float32 N x 1 x H x W in [0, 1], int64 labels)``.
It uses ``torchvision.datasets.FashionMNIST`` when the files are on disk or can
be downloaded. Without them it falls back to :class:`SyntheticFashionMNIST`, a
learnable dataset of the same shape, and prints one line saying so. The
returned loaders' ``loader.dataset.source`` is ``"fashion-mnist"`` or
``"synthetic"`` so a notebook can print which one it got.

:func:`write_idx_files` writes small files in the FashionMNIST IDX format, so
tests can exercise the real torchvision loader without the network.

:class:`CostlyLoading` wraps a dataset so that each sample costs what real
images cost to load: a wait (reading a file) and CPU work (decoding and
augmenting), so that the lesson on ``DataLoader`` workers has something for
them to do.

What it is not: a data-augmentation or input-pipeline tuning library. The
lessons on pinned memory, workers and prefetching use ``DataLoader`` directly;
this module only passes ``num_workers`` and ``pin_memory`` through.

Importing this module is cheap: torchvision is imported inside the functions.
"""

import gzip
import math
import operator
import struct
import time
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset, Subset

from ._validate import check_int

__all__ = [
    "FASHION_MNIST_CLASSES",
    "CostlyLoading",
    "SyntheticFashionMNIST",
    "box_blur",
    "load_fashion_mnist",
    "text_labels",
    "write_idx_files",
]

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

_FULL_SIZES = {"train": 60000, "test": 10000}
_TEMPLATE_SEED = 20240521  # the class patterns are fixed; `seed` only varies the samples
_MAX_SHIFT = 2  # pixels a sample's pattern may move, so position alone does not give the class
_NOISE_STD = 0.2  # on a [0, 1] scale: visible, but the class pattern still shows through


def text_labels(labels):
    """Return the FashionMNIST class names for integer labels (ints or a tensor)."""
    if isinstance(labels, torch.Tensor):
        labels = labels.tolist()  # a CPU copy; fine for the handful of labels one plots
    names = []
    for label in labels:
        try:
            index = operator.index(label)  # ints and NumPy integers; not floats or strings
        except TypeError:
            index = None
        if isinstance(label, bool) or index is None or not 0 <= index < 10:
            raise ValueError(f"labels must be integers in 0..9, got {label!r}")
        names.append(FASHION_MNIST_CLASSES[index])
    return names


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
        if isinstance(read_s, bool) or not isinstance(read_s, int | float) or not read_s >= 0:
            raise ValueError(f"read_s must be a number of seconds >= 0, got {read_s!r}")
        if (
            isinstance(decode_rounds, bool)
            or not isinstance(decode_rounds, int)
            or decode_rounds < 0
        ):
            raise ValueError(f"decode_rounds must be an int >= 0, got {decode_rounds!r}")
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


def write_idx_files(root, n_train, n_test, seed=0):
    """Write FashionMNIST-format IDX files of synthetic images under ``root``.

    Writes ``root/FashionMNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte``,
    uncompressed (what ``torchvision.datasets.FashionMNIST`` reads and checks
    for) and gzipped (``.gz``, what a download leaves beside them). Images are
    big-endian IDX with magic 2051, labels magic 2049, as in the real files.
    The pictures come from :class:`SyntheticFashionMNIST` with ``seed``, so a
    model can learn from them. Returns the ``raw`` folder as a ``Path``.
    """
    check_int("n_train", n_train, minimum=1)
    check_int("n_test", n_test, minimum=1)
    raw = Path(root) / "FashionMNIST" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for prefix, n, train in (("train", n_train, True), ("t10k", n_test, False)):
        ds = SyntheticFashionMNIST(n, train=train, seed=seed)
        images = struct.pack(">IIII", 2051, n, 28, 28) + ds.data.numpy().tobytes()
        labels = struct.pack(">II", 2049, n) + ds.targets.to(torch.uint8).numpy().tobytes()
        for name, payload in (
            (f"{prefix}-images-idx3-ubyte", images),
            (f"{prefix}-labels-idx1-ubyte", labels),
        ):
            (raw / name).write_bytes(payload)
            (raw / f"{name}.gz").write_bytes(gzip.compress(payload))
    return raw


def _load_torchvision(root, resize, download):
    """Return the real (train, test) datasets, or raise RuntimeError/OSError if unavailable."""
    from torchvision import datasets, transforms

    steps = [transforms.Resize(resize)] if resize is not None else []
    transform = transforms.Compose([*steps, transforms.ToTensor()])
    train = datasets.FashionMNIST(root, train=True, transform=transform, download=download)
    test = datasets.FashionMNIST(root, train=False, transform=transform, download=download)
    return train, test


def _first(dataset, size, name):
    """The first ``size`` items of ``dataset`` (all if None), keeping ``.source``."""
    if size is None or size == len(dataset):
        return dataset
    if size > len(dataset):
        raise ValueError(f"{name}={size} is larger than the dataset ({len(dataset)} images)")
    subset = Subset(dataset, range(size))
    subset.source = dataset.source
    return subset


def load_fashion_mnist(
    batch_size,
    *,
    root="data",
    resize=None,
    num_workers=0,
    pin_memory=False,
    download=True,
    synthetic=None,
    train_size=None,
    test_size=None,
    seed=0,
):
    """Return ``(train_loader, test_loader)`` over FashionMNIST or, failing that, a stand-in.

    With ``synthetic=None`` (default) it loads ``torchvision.datasets.FashionMNIST``
    from ``root``, downloading it if ``download`` is true. If the files are
    missing and cannot be downloaded, it prints one line and uses
    :class:`SyntheticFashionMNIST` instead. ``synthetic=True`` uses the stand-in
    directly (and says so); ``synthetic=False`` raises ``RuntimeError`` rather
    than fall back.

    ``train_size`` / ``test_size`` keep the first N images (fast CPU runs).
    ``resize`` (int) makes images ``resize x resize``. The train loader
    shuffles with a generator seeded by ``seed``, which also seeds the stand-in
    data; the test loader does not shuffle. Batches are float32
    ``B x 1 x H x W`` in [0, 1] and int64 labels. ``loader.dataset.source``
    is ``"fashion-mnist"`` or ``"synthetic"``.
    """
    check_int("batch_size", batch_size, minimum=1)
    check_int("resize", resize, minimum=1, allow_none=True)
    check_int("train_size", train_size, minimum=1, allow_none=True)
    check_int("test_size", test_size, minimum=1, allow_none=True)
    check_int("num_workers", num_workers, minimum=0)
    if synthetic not in (None, True, False):
        raise ValueError(f"synthetic must be None, True or False, got {synthetic!r}")
    check_int("seed", seed)

    fallback = "synthetic=True" if synthetic else None
    if not synthetic:
        try:
            train_ds, test_ds = _load_torchvision(root, resize, download)
        except (RuntimeError, OSError) as err:  # missing files, or no network for the download
            where = f"{Path(root)}/"
            if synthetic is False:
                cause = str(err).strip().splitlines()[0] if str(err).strip() else repr(err)
                raise RuntimeError(
                    f"FashionMNIST not found under {where} (download={download}) and "
                    "synthetic=False forbids the synthetic fallback. Put the raw files in "
                    f"{where}FashionMNIST/raw/ or pass synthetic=None to allow the fallback. "
                    f"Cause: {cause}"
                ) from err
            how = "and could not be downloaded" if download else "(download=False)"
            fallback = f"FashionMNIST not found under {where} {how}"
        else:
            train_ds.source = test_ds.source = "fashion-mnist"
    if fallback is not None:
        n_train = train_size or _FULL_SIZES["train"]
        n_test = test_size or _FULL_SIZES["test"]
        train_ds = SyntheticFashionMNIST(n_train, train=True, seed=seed, resize=resize)
        test_ds = SyntheticFashionMNIST(n_test, train=False, seed=seed, resize=resize)
        # One line, every time: a silent swap would make accuracies look like real ones.
        print(
            f"{fallback}: using a synthetic FashionMNIST-shaped dataset "
            f"({n_train}/{n_test} images, 10 classes). "
            "Accuracies are not comparable with the real data."
        )

    train_ds = _first(train_ds, train_size, "train_size")
    test_ds = _first(test_ds, test_size, "test_size")
    shuffle_gen = torch.Generator().manual_seed(seed)
    common = {"batch_size": batch_size, "num_workers": num_workers, "pin_memory": pin_memory}
    train_loader = DataLoader(train_ds, shuffle=True, generator=shuffle_gen, **common)
    test_loader = DataLoader(test_ds, shuffle=False, **common)
    return train_loader, test_loader
