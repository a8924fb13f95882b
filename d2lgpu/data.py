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

The datasets themselves, :class:`~d2lgpu.datasets.SyntheticFashionMNIST` and
:class:`~d2lgpu.datasets.CostlyLoading` (each sample costs a read and a decode, for
the lesson on ``DataLoader`` workers), live in :mod:`d2lgpu.datasets`.

What it is not: a data-augmentation or input-pipeline tuning library. The
lessons on pinned memory, workers and prefetching use ``DataLoader`` directly;
this module only passes ``num_workers`` and ``pin_memory`` through.

Importing this module is cheap: torchvision is imported inside the functions.
"""

import gzip
import operator
import struct
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Subset

from ._validate import check_int
from .datasets import FASHION_MNIST_CLASSES, SyntheticFashionMNIST

__all__ = [
    "load_fashion_mnist",
    "text_labels",
    "write_idx_files",
]

_FULL_SIZES = {"train": 60000, "test": 10000}


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


def _datasets(root, resize, download, synthetic, sizes, seed):
    """The real (train, test) datasets or, where ``synthetic`` allows, the stand-in (said once)."""
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
            return train_ds, test_ds
    n_train = sizes["train"] or _FULL_SIZES["train"]
    n_test = sizes["test"] or _FULL_SIZES["test"]
    train_ds = SyntheticFashionMNIST(n_train, train=True, seed=seed, resize=resize)
    test_ds = SyntheticFashionMNIST(n_test, train=False, seed=seed, resize=resize)
    # One line, every time: a silent swap would make accuracies look like real ones.
    print(
        f"{fallback}: using a synthetic FashionMNIST-shaped dataset "
        f"({n_train}/{n_test} images, 10 classes). "
        "Accuracies are not comparable with the real data."
    )
    return train_ds, test_ds


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

    sizes = {"train": train_size, "test": test_size}
    train_ds, test_ds = _datasets(root, resize, download, synthetic, sizes, seed)
    train_ds = _first(train_ds, train_size, "train_size")
    test_ds = _first(test_ds, test_size, "test_size")
    shuffle_gen = torch.Generator().manual_seed(seed)
    common = {"batch_size": batch_size, "num_workers": num_workers, "pin_memory": pin_memory}
    train_loader = DataLoader(train_ds, shuffle=True, generator=shuffle_gen, **common)
    test_loader = DataLoader(test_ds, shuffle=False, **common)
    return train_loader, test_loader
