"""d2lgpu.data: the real torchvision loader on IDX files, the synthetic fallback, and its honesty."""

import gzip
import struct

import pytest
import torch
from ddp_helpers.procs import fresh_python

from d2lgpu import data, datasets

RAW_NAMES = [
    "train-images-idx3-ubyte",
    "train-labels-idx1-ubyte",
    "t10k-images-idx3-ubyte",
    "t10k-labels-idx1-ubyte",
]


@pytest.mark.slow
def test_importing_data_models_training_plotting_is_cheap_and_silent():
    # One subprocess for all four modules (each start pays for `import torch`).
    # Imports accumulate, so the first module whose line is not [] is the culprit.
    code = (
        "import importlib, sys, torch\n"
        "def forbidden(*args, **kwargs):\n"
        "    raise AssertionError('CUDA was touched during import')\n"
        "torch.cuda._lazy_init = torch.cuda.is_available = torch.cuda.device_count = forbidden\n"
        "rng = torch.get_rng_state().clone()\n"
        "for name in ('data', 'models', 'training', 'plotting'):\n"
        "    importlib.import_module('d2lgpu.' + name)\n"
        "    print(name, sorted(m for m in ('torchvision', 'matplotlib') if m in sys.modules))\n"
        "print('rng unchanged', torch.equal(rng, torch.get_rng_state()))\n"
    )
    out = fresh_python("-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "data []",
        "models []",
        "training []",
        "plotting []",
        "rng unchanged True",
    ]


def test_write_idx_files_writes_the_fashion_mnist_layout(tmp_path):
    raw = data.write_idx_files(tmp_path, n_train=7, n_test=5)
    assert raw == tmp_path / "FashionMNIST" / "raw"
    for name in RAW_NAMES:
        plain = (raw / name).read_bytes()
        assert gzip.decompress((raw / f"{name}.gz").read_bytes()) == plain
    images = (raw / "train-images-idx3-ubyte").read_bytes()
    assert struct.unpack(">IIII", images[:16]) == (2051, 7, 28, 28)
    assert len(images) == 16 + 7 * 28 * 28
    labels = (raw / "t10k-labels-idx1-ubyte").read_bytes()
    assert struct.unpack(">II", labels[:8]) == (2049, 5)
    assert max(labels[8:]) <= 9


def test_real_torchvision_loader_reads_idx_files(tmp_path, capsys):
    data.write_idx_files(tmp_path, n_train=40, n_test=20, seed=3)
    train_iter, test_iter = data.load_fashion_mnist(
        16, root=tmp_path, download=False, synthetic=False, seed=3
    )
    assert capsys.readouterr().out == ""  # the real data: nothing to warn about
    assert train_iter.dataset.source == test_iter.dataset.source == "fashion-mnist"
    assert type(train_iter.dataset).__name__ == "FashionMNIST"
    assert (len(train_iter.dataset), len(test_iter.dataset)) == (40, 20)
    X, y = next(iter(test_iter))  # the test loader does not shuffle
    assert X.shape == (16, 1, 28, 28) and X.dtype == torch.float32
    assert 0.0 <= X.min() and X.max() <= 1.0 and X.max() > 0.5
    assert y.dtype == torch.int64
    expected = datasets.SyntheticFashionMNIST(20, train=False, seed=3)
    assert torch.equal(y, expected.targets[:16])
    torch.testing.assert_close(X, expected.data[:16].unsqueeze(1) / 255)


def test_real_loader_subsets_and_resizes(tmp_path):
    data.write_idx_files(tmp_path, n_train=30, n_test=12)
    train_iter, test_iter = data.load_fashion_mnist(
        8, root=tmp_path, download=False, resize=32, train_size=20, test_size=10
    )
    assert (len(train_iter.dataset), len(test_iter.dataset)) == (20, 10)
    assert train_iter.dataset.source == "fashion-mnist"  # kept through the Subset
    X, _ = next(iter(train_iter))
    assert X.shape == (8, 1, 32, 32)
    with pytest.raises(ValueError, match="train_size=31"):
        data.load_fashion_mnist(8, root=tmp_path, download=False, train_size=31)


def test_fallback_prints_exactly_one_line_when_files_are_missing(tmp_path, capsys):
    train_iter, test_iter = data.load_fashion_mnist(
        32, root=tmp_path, download=False, train_size=64, test_size=32
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    assert "not found under" in lines[0] and "download=False" in lines[0]
    assert "synthetic" in lines[0] and "not comparable" in lines[0] and "64/32" in lines[0]
    assert train_iter.dataset.source == test_iter.dataset.source == "synthetic"
    X, y = next(iter(train_iter))
    assert X.shape == (32, 1, 28, 28) and X.dtype == torch.float32 and y.dtype == torch.int64


def test_failed_download_falls_back_and_says_so(tmp_path, capsys, monkeypatch):
    from torchvision import datasets

    def no_network(self):
        raise RuntimeError("Error downloading train-images-idx3-ubyte.gz: no network")

    monkeypatch.setattr(datasets.FashionMNIST, "download", no_network)
    train_iter, _ = data.load_fashion_mnist(8, root=tmp_path, train_size=16, test_size=8)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "could not be downloaded" in out
    assert train_iter.dataset.source == "synthetic"


def test_synthetic_false_forbids_the_fallback(tmp_path):
    with pytest.raises(RuntimeError, match="synthetic=False"):
        data.load_fashion_mnist(8, root=tmp_path, download=False, synthetic=False)


def test_synthetic_true_is_used_even_when_real_files_exist_and_says_so(tmp_path, capsys):
    data.write_idx_files(tmp_path, n_train=10, n_test=10)
    train_iter, _ = data.load_fashion_mnist(
        4, root=tmp_path, synthetic=True, train_size=12, test_size=4
    )
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("synthetic=True")
    assert train_iter.dataset.source == "synthetic" and len(train_iter.dataset) == 12


def test_train_loader_shuffle_is_seeded():
    def first_labels(seed):
        loader, _ = data.load_fashion_mnist(
            16, synthetic=True, train_size=64, test_size=8, seed=seed
        )
        return next(iter(loader))[1]

    assert torch.equal(first_labels(0), first_labels(0))
    assert not torch.equal(first_labels(0), first_labels(1))


def test_synthetic_dataset_is_deterministic_and_leaves_the_global_rng_alone():
    state = torch.get_rng_state()
    a = datasets.SyntheticFashionMNIST(50, seed=1)
    assert torch.equal(state, torch.get_rng_state())
    b = datasets.SyntheticFashionMNIST(50, seed=1)
    assert torch.equal(a.data, b.data) and torch.equal(a.targets, b.targets)
    assert not torch.equal(a.data, datasets.SyntheticFashionMNIST(50, seed=2).data)
    assert not torch.equal(a.data, datasets.SyntheticFashionMNIST(50, seed=1, train=False).data)
    X, y = a[0]
    assert X.shape == (1, 28, 28) and X.dtype == torch.float32 and isinstance(y, int)
    assert datasets.SyntheticFashionMNIST(3, resize=64)[0][0].shape == (1, 64, 64)


def test_synthetic_classes_differ_more_than_samples_within_a_class():
    # The property that makes it learnable: class means are far apart compared
    # with how far a sample strays from its own class mean.
    ds = datasets.SyntheticFashionMNIST(2000, seed=0)
    x = ds.data.float().flatten(1) / 255
    means = torch.stack([x[ds.targets == c].mean(0) for c in range(10)])
    nearest = torch.cdist(x, means).argmin(dim=1)
    assert (nearest == ds.targets).float().mean() > 0.6
    assert set(ds.targets.tolist()) == set(range(10))


def test_text_labels():
    assert data.text_labels([0, 9]) == ["t-shirt", "ankle boot"]
    assert data.text_labels(torch.tensor([1, 7])) == ["trouser", "sneaker"]
    with pytest.raises(ValueError, match="labels must be integers in 0..9"):
        data.text_labels([10])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"batch_size": 0}, "batch_size must be an int >= 1, got 0"),
        ({"batch_size": 8, "resize": -1}, "resize must be an int >= 1 or None, got -1"),
        ({"batch_size": 8, "train_size": 0}, "train_size must be"),
        ({"batch_size": 8, "test_size": 2.5}, "test_size must be"),
        ({"batch_size": 8, "num_workers": -1}, "num_workers must be an int >= 0"),
        ({"batch_size": 8, "synthetic": "yes"}, "synthetic must be None, True or False"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        data.load_fashion_mnist(**kwargs)


def test_bad_dataset_arguments():
    with pytest.raises(ValueError, match="^n must be an int >= 1, got 0"):
        datasets.SyntheticFashionMNIST(0)
    with pytest.raises(ValueError, match="seed must be an int, got 1.5"):
        datasets.SyntheticFashionMNIST(5, seed=1.5)
    with pytest.raises(ValueError, match="n_test must be an int >= 1, got 0"):
        data.write_idx_files("unused", n_train=1, n_test=0)


def test_costly_loading_decodes_by_blurring_and_keeps_the_label():
    base = datasets.SyntheticFashionMNIST(4, seed=3)
    costly = datasets.CostlyLoading(base, decode_rounds=2)
    image, label = costly[1]
    want_image, want_label = base[1]
    assert len(costly) == len(base) and label == want_label
    torch.testing.assert_close(image, datasets.box_blur(want_image, 2))
    assert not torch.equal(image, want_image)  # the blur really changed the image
    # One round by hand: the mean of each pixel's 3 x 3 neighbourhood, zeros outside.
    padded = torch.nn.functional.pad(want_image, (1, 1, 1, 1))
    by_hand = sum(padded[:, i : i + 28, j : j + 28] for i in range(3) for j in range(3)) / 9
    torch.testing.assert_close(datasets.box_blur(want_image, 1), by_hand)
    torch.testing.assert_close(datasets.CostlyLoading(base)[1][0], want_image)  # no rounds: as is


def test_costly_loading_waits_read_s_per_sample_and_pickles_for_workers():
    import pickle
    import time

    costly = datasets.CostlyLoading(datasets.SyntheticFashionMNIST(2), read_s=0.05)
    start = time.perf_counter()
    costly[0]
    assert time.perf_counter() - start >= 0.05
    again = pickle.loads(pickle.dumps(costly))  # spawned DataLoader workers get it pickled
    assert again.read_s == 0.05 and len(again) == 2


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"read_s": -1}, "read_s"),
        ({"read_s": "1"}, "read_s"),
        ({"read_s": True}, "read_s"),
        ({"decode_rounds": -1}, "decode_rounds"),
        ({"decode_rounds": 2.0}, "decode_rounds"),
    ],
)
def test_costly_loading_rejects_bad_costs_by_name(kwargs, name):
    with pytest.raises(ValueError, match=name):
        datasets.CostlyLoading(datasets.SyntheticFashionMNIST(2), **kwargs)
