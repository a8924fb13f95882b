"""d2lgpu.training_checkpoints: atomic, checksummed checkpoints and the random state (on the CPU)."""

import hashlib
import random

import numpy as np
import pytest
import torch

from d2lgpu import training_checkpoints as C


def test_write_atomic_replaces_the_whole_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"old contents, longer than the new ones")
    assert C.write_atomic(path, b"new") == path
    assert path.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.bin"]


def test_save_writes_the_file_then_a_sha256sum_sidecar(tmp_path):
    path = C.save_checkpoint(tmp_path, 7, {"w": torch.arange(4.0)})
    assert path == tmp_path / "ckpt-epoch0007.pt"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert (tmp_path / "ckpt-epoch0007.pt.sha256").read_text() == f"{digest}  ckpt-epoch0007.pt\n"
    assert torch.equal(C.read_checkpoint(path)["w"], torch.arange(4.0))


def test_newest_first_by_epoch_number_not_by_name(tmp_path):
    for epoch in (9, 10000, 10):
        C.save_checkpoint(tmp_path, epoch, {"epoch": epoch}, keep=5)
    names = [p.name for p in C.list_checkpoints(tmp_path)]
    assert names == ["ckpt-epoch10000.pt", "ckpt-epoch0010.pt", "ckpt-epoch0009.pt"]
    assert C.list_checkpoints(tmp_path / "absent") == []


@pytest.mark.parametrize("keep", [1, 3])
def test_only_the_newest_keep_checkpoints_stay(tmp_path, keep):
    for epoch in range(1, 6):
        C.save_checkpoint(tmp_path, epoch, {"epoch": epoch}, keep=keep)
    kept = [C.read_checkpoint(p)["epoch"] for p in C.list_checkpoints(tmp_path)]
    assert kept == list(range(5, 5 - keep, -1))
    assert len(list(tmp_path.glob("*.sha256"))) == keep


def test_bad_epoch_or_keep_is_refused(tmp_path):
    with pytest.raises(ValueError, match="epoch must be an int >= 0, got -1"):
        C.save_checkpoint(tmp_path, -1, {})
    with pytest.raises(ValueError, match="keep must be an int >= 1, got 0"):
        C.save_checkpoint(tmp_path, 1, {}, keep=0)
    assert list(tmp_path.iterdir()) == []


def test_an_intact_file_that_is_no_checkpoint_is_named(tmp_path):
    path = tmp_path / "ckpt-epoch0001.pt"
    path.write_bytes(b"not a torch file")
    digest = hashlib.sha256(b"not a torch file").hexdigest()
    (tmp_path / "ckpt-epoch0001.pt.sha256").write_text(f"{digest}  ckpt-epoch0001.pt\n")
    with pytest.raises(C.CheckpointError, match="ckpt-epoch0001.pt: intact but cannot be loaded"):
        C.read_checkpoint(path)


def test_an_empty_checksum_file_means_an_unfinished_save(tmp_path):
    path = C.save_checkpoint(tmp_path, 1, {"epoch": 1})
    (tmp_path / "ckpt-epoch0001.pt.sha256").write_text("")
    with pytest.raises(C.CheckpointError, match="no checksum file, the save did not finish"):
        C.read_checkpoint(path)


def test_the_newest_intact_checkpoint_is_loaded_and_each_damaged_one_named(tmp_path):
    for epoch in (1, 2, 3):
        C.save_checkpoint(tmp_path, epoch, {"epoch": epoch}, keep=3)
    for epoch in (2, 3):
        path = tmp_path / f"ckpt-epoch000{epoch}.pt"
        path.write_bytes(path.read_bytes()[:-1])
    said = []
    path, state = C.load_newest_checkpoint(tmp_path, said.append)
    assert (path.name, state["epoch"]) == ("ckpt-epoch0001.pt", 1)
    assert [s.split()[4] for s in said] == ["ckpt-epoch0003.pt:", "ckpt-epoch0002.pt:"]
    assert all(s.startswith("warning: skipping damaged checkpoint") for s in said)


def test_rng_states_round_trip_torch_python_and_numpy():
    torch.manual_seed(1)
    random.seed(2)
    np.random.seed(3)
    states = C.rng_states()
    expected = (torch.rand(3), random.random(), np.random.rand())
    torch.manual_seed(9)
    random.seed(9)
    np.random.seed(9)
    C.set_rng_states(states)
    again = (torch.rand(3), random.random(), np.random.rand())
    assert torch.equal(again[0], expected[0]) and again[1:] == expected[1:]
    assert states["cuda"] == []


def test_the_cpu_never_reads_or_writes_a_gpu_generator(gpus, monkeypatch):
    gpus(1)

    def forbidden(*args, **kwargs):
        raise AssertionError("CUDA touched for a CPU device")

    monkeypatch.setattr(torch.cuda, "get_rng_state", forbidden)
    monkeypatch.setattr(torch.cuda, "set_rng_state", forbidden)
    states = C.rng_states("cpu")
    assert states["cuda"] == []
    C.set_rng_states({**states, "cuda": [torch.zeros(8, dtype=torch.uint8)]}, "cpu")


def test_a_gpu_device_saves_and_restores_its_own_generator(monkeypatch):
    seen = []
    monkeypatch.setattr(torch.cuda, "get_rng_state", lambda d: seen.append(("get", d)) or "s")
    monkeypatch.setattr(torch.cuda, "set_rng_state", lambda s, d: seen.append(("set", s, d)))
    states = C.rng_states("cuda:1")
    assert states["cuda"] == ["s"]
    C.set_rng_states(states, torch.device("cuda", 1))
    assert seen == [("get", torch.device("cuda", 1)), ("set", "s", torch.device("cuda", 1))]
