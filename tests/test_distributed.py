"""d2lgpu.distributed: the one backend rule (GPUs faked where the test needs them).

launch() is d2lgpu.launcher's, tested in test_launcher.py.
"""

import pytest
import torch

from d2lgpu import distributed as D

# --- the backend rule --------------------------------------------------------------------------


def test_choose_backend_is_gloo_without_gpus(gpus, monkeypatch):
    gpus(0)
    assert D.choose_backend() == "gloo"
    assert D.choose_backend(1) == "gloo"
    assert D.choose_backend(1, requested="nccl") == "gloo"
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "4")
    assert D.choose_backend() == "gloo"


def test_choose_backend_needs_one_gpu_per_local_process(gpus, monkeypatch):
    gpus(2)
    assert D.choose_backend(2) == "nccl"
    assert D.choose_backend(1) == "nccl"
    assert D.choose_backend(3) == "gloo"
    assert D.choose_backend(2, requested="gloo") == "gloo"
    assert D.choose_backend(2, requested="nccl") == "nccl"
    assert D.choose_backend(3, requested="nccl") == "gloo"
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "3")
    assert D.choose_backend() == "gloo"
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")
    assert D.choose_backend() == "nccl"
    monkeypatch.delenv("LOCAL_WORLD_SIZE")
    assert D.choose_backend() == "nccl"  # outside torchrun: one process


def test_one_gpu_and_two_ranks_is_gloo(gpus, monkeypatch):
    gpus(1)
    assert D.choose_backend(2) == "gloo"
    assert D.choose_backend(1) == "nccl"
    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    assert D.choose_backend() == "nccl"  # outside torchrun: one process, one GPU
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")
    assert D.choose_backend() == "gloo"
    # CUDA built but no device visible (CUDA_VISIBLE_DEVICES=""): no GPU at all.
    gpus(0)
    assert D.choose_backend(1) == "gloo"


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True])
def test_choose_backend_rejects_bad_counts(bad):
    with pytest.raises(ValueError, match=f"nproc_per_node must be an int >= 1, got {bad!r}"):
        D.choose_backend(bad)


def test_choose_backend_rejects_an_unknown_request():
    with pytest.raises(ValueError, match="requested must be one of"):
        D.choose_backend(1, requested="mpi")


def test_rank_device_is_the_local_gpu_under_nccl_and_the_cpu_under_gloo():
    assert D.rank_device("nccl", 0) == torch.device("cuda", 0)
    assert D.rank_device("nccl", 3) == torch.device("cuda", 3)
    assert D.rank_device("gloo", 3) == torch.device("cpu")
    with pytest.raises(ValueError, match="backend must be 'nccl' or 'gloo'"):
        D.rank_device("auto", 0)
    with pytest.raises(ValueError, match="local_rank must be an int >= 0"):
        D.rank_device("nccl", -1)


def test_course_script_is_the_courses_file_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a copy in work/chapters/ runs from elsewhere than notebooks/
    path = D.course_script("train_ddp.py")
    assert path.is_absolute() and path.is_file() and path.parent.name == "scripts"
    with pytest.raises(FileNotFoundError, match=r"name='nope.py'.*'train_ddp.py'"):
        D.course_script("nope.py")
