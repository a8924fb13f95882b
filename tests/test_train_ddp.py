"""scripts/train_ddp.py under torchrun, on the CPU with gloo: what the DDP chapter claims.

- determinism: 2 ranks match 1 process on the same global batch; a resumed run matches an
  uninterrupted one; two torchrun "nodes" on 127.0.0.1 match one node of 2 processes;
- the backend rule on one GPU (CUDA faked): two ranks per machine train on the CPU with gloo
  and never call CUDA; a GPU per rank gets nccl on cuda:LOCAL_RANK;
- bad input: no torchrun, --resume without checkpoint, ... say what to do.

Faults (killed ranks, restarts, damaged checkpoints, signals) are in test_train_ddp_faults.py,
so that pytest-xdist can run the two halves side by side. Every test marks the processes it
starts and fails if one outlives it. The uninterrupted reference runs are made once per
session and shared with test_train_ddp_faults.py (fixtures `ref1`, `ref2` in conftest.py).
"""

import signal
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from ddp_helpers.train_ddp import (
    BACKEND,
    COMMON,
    EPOCHS,
    assert_same_params,
    device_of,
    layout_backend,
    max_diff,
    params,
    run_direct,
    train,
)

from d2lgpu import training_checkpoints as TC
from d2lgpu.distributed import choose_backend
from d2lgpu.processes import free_port

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="requires Linux")


# --- the command line without torchrun -----------------------------------------------------


@pytest.mark.slow
def test_help_works_without_torchrun(tag, idle_budget):
    proc, seconds = run_direct("--help", tag=tag)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for flag in (
        "--epochs",
        "--batch-size",
        "--lr",
        "--seed",
        "--data",
        "--amp",
        "--accumulate",
        "--checkpoint-dir",
        "--resume",
        "--dry-run",
        "--timeout-s",
    ):
        assert flag in out
    assert "(default: 64)" in out  # defaults are shown
    assert "torchrun --standalone --nproc-per-node=2" in out  # the usage commands
    assert "srun torchrun" in out
    print(f"--help took {seconds:.1f} s")
    assert seconds < idle_budget(30)  # no torchrun, no process group: python, torch's import


@pytest.mark.slow
def test_without_torchrun_it_says_how_to_launch(tag):
    proc, _ = run_direct("--epochs", "1", tag=tag)
    assert proc.returncode == 2
    assert "not started by torchrun" in proc.stderr
    assert "torchrun --standalone --nproc-per-node=2 scripts/train_ddp.py" in proc.stderr


@pytest.mark.slow
def test_global_batch_must_split_evenly(tag):
    proc, _ = run_direct("--batch-size", "33", tag=tag, world_size=2)  # fails before init
    assert proc.returncode == 2
    assert "must be a multiple of world size x --accumulate = 2 x 1" in proc.stderr


# --- checkpoints, in-process -------------------------------------------------------------------


def test_checkpoint_round_trip_restores_rng(tmp_path):
    torch.manual_seed(123)
    state = {"epoch": 1, "model": {"w": torch.randn(3)}, "rng": TC.rng_states()}
    expected = torch.rand(5)  # what comes next after the saved state
    path = TC.save_checkpoint(tmp_path, 1, state)
    assert path.name == "ckpt-epoch0001.pt"
    assert (tmp_path / "ckpt-epoch0001.pt.sha256").read_text().endswith("  ckpt-epoch0001.pt\n")
    assert not list(tmp_path.glob(".*tmp*")), "temporary files left"
    torch.rand(100)
    loaded = TC.read_checkpoint(path)
    torch.testing.assert_close(loaded["model"]["w"], state["model"]["w"])
    TC.set_rng_states(loaded["rng"])
    assert torch.equal(torch.rand(5), expected)


def test_only_the_last_two_checkpoints_are_kept(tmp_path):
    for epoch in range(1, 5):
        TC.save_checkpoint(tmp_path, epoch, {"epoch": epoch})
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "ckpt-epoch0003.pt",
        "ckpt-epoch0003.pt.sha256",
        "ckpt-epoch0004.pt",
        "ckpt-epoch0004.pt.sha256",
    ]


@pytest.mark.parametrize("damage", ["flip", "truncate", "no-checksum"])
def test_damaged_checkpoint_is_detected_and_skipped(tmp_path, damage):
    for epoch in (1, 2):
        TC.save_checkpoint(tmp_path, epoch, {"epoch": epoch, "w": torch.arange(1000.0)})
    newest = tmp_path / "ckpt-epoch0002.pt"
    data = bytearray(newest.read_bytes())
    if damage == "flip":  # one bit, in the tensor data: torch.load would not notice
        data[len(data) // 2] ^= 0x01
        newest.write_bytes(data)
    elif damage == "truncate":
        newest.write_bytes(data[: len(data) // 2])
    else:  # the save stopped before its checksum was written
        (tmp_path / "ckpt-epoch0002.pt.sha256").unlink()
    expected = "no checksum file" if damage == "no-checksum" else "sha256 mismatch"
    with pytest.raises(TC.CheckpointError, match=expected):
        TC.read_checkpoint(newest)

    warnings = []
    path, state = TC.load_newest_checkpoint(tmp_path, warnings.append)
    assert path.name == "ckpt-epoch0001.pt" and state["epoch"] == 1
    assert len(warnings) == 1 and "ckpt-epoch0002.pt" in warnings[0]


def test_no_intact_checkpoint_is_a_clear_error(tmp_path):
    assert TC.load_newest_checkpoint(tmp_path, print) == (None, None)  # none at all
    for epoch in (1, 2):
        path = TC.save_checkpoint(tmp_path, epoch, {"epoch": epoch})
        path.write_bytes(path.read_bytes()[:-1])
    with pytest.raises(TC.CheckpointError, match="no intact checkpoint in"):
        TC.load_newest_checkpoint(tmp_path, lambda msg: None)


def test_fault_injection_only_on_the_first_attempt(script, monkeypatch):
    killed = []
    monkeypatch.setattr(script.os, "kill", lambda pid, sig: killed.append(sig))
    monkeypatch.setenv("TRAIN_DDP_FAIL_AT_STEP", "5")
    monkeypatch.setenv("TORCHELASTIC_RESTART_COUNT", "0")
    script.maybe_inject_fault(4, rank=1, world_size=2)
    script.maybe_inject_fault(5, rank=0, world_size=2)  # the victim is the last rank
    assert killed == []
    script.maybe_inject_fault(5, rank=1, world_size=2)
    assert killed == [signal.SIGKILL]
    monkeypatch.setenv("TORCHELASTIC_RESTART_COUNT", "1")
    script.maybe_inject_fault(5, rank=1, world_size=2)
    assert killed == [signal.SIGKILL]


# --- one GPU, two ranks: the backend rule and what may touch CUDA (CUDA faked, on the CPU) -----


def fake_one_gpu(gpus, monkeypatch):
    """CUDA "available" with 1 device; any real CUDA call fails the test (as it would fail
    for ranks sharing the GPU under gloo, or raise on this CPU-only build anyway)."""
    gpus(1)

    def forbid(name):
        def no_cuda(*args, **kwargs):  # one function per name: torch indexes them by identity
            raise AssertionError(f"a gloo rank called torch.cuda.{name}")

        return no_cuda

    for name in ("_lazy_init", "set_device", "get_rng_state", "get_rng_state_all",
                 "set_rng_state", "set_rng_state_all", "synchronize", "current_device"):  # fmt: skip
        monkeypatch.setattr(torch.cuda, name, forbid(name))


def test_compared_runs_use_one_device_on_one_gpu(gpus, monkeypatch):
    fake_one_gpu(gpus, monkeypatch)
    backend = layout_backend()
    assert backend == "gloo"
    # What each compared run gets: 1 process (ref1), 2 processes (ref2), 2 nodes x 1 process.
    layouts = [choose_backend(n, requested=backend) for n in (1, 2, 1)]
    assert layouts == ["gloo"] * 3
    # Without --backend, the 1-process run alone would take the GPU: what failed on an H100.
    assert choose_backend(1) == "nccl" and choose_backend(2) == "gloo"


def join(script, monkeypatch, backend, local_rank, local_world_size):
    """The script's join_process_group, with init_process_group and set_device recorded."""
    calls = []
    monkeypatch.setattr(script.dist, "init_process_group", lambda b, **kw: calls.append(b))
    monkeypatch.setattr(torch.cuda, "set_device", lambda d: calls.append(str(d)))
    args = script.parse_args(["--backend", backend])
    logged = []
    device = script.join_process_group(args, local_rank, local_world_size, logged.append)
    return device, calls, logged


def test_a_gpu_per_local_rank_gets_nccl_on_cuda_local_rank(script, gpus, monkeypatch):
    gpus(2)
    device, calls, logged = join(script, monkeypatch, "auto", 1, 2)
    assert device == torch.device("cuda", 1)
    assert calls == ["cuda:1", "nccl"]  # set_device before init
    assert logged[0] == "backend nccl: 2 GPU(s) for 2 process(es) per machine"


def test_two_ranks_on_one_gpu_get_gloo_on_the_cpu(script, gpus, monkeypatch):
    fake_one_gpu(gpus, monkeypatch)
    for local_rank in (0, 1):
        device, calls, logged = join(script, monkeypatch, "auto", local_rank, 2)
        assert device == torch.device("cpu") and calls == ["gloo"]
        assert logged[0] == "backend gloo: 2 process(es) per machine but 1 GPU(s)"
    device, calls, logged = join(script, monkeypatch, "nccl", 0, 2)
    assert device == torch.device("cpu") and calls == ["gloo"]
    assert "falling back to gloo" in logged[0]


def test_gloo_ranks_beside_one_gpu_train_without_calling_cuda(
    script, tmp_path, gpus, monkeypatch, capsys, one_thread
):
    # This process is rank 0 of a world of 1, told that its machine runs 2 processes.
    fake_one_gpu(gpus, monkeypatch)
    world = dict(RANK=0, WORLD_SIZE=1, LOCAL_RANK=0, LOCAL_WORLD_SIZE=2)
    world.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=free_port())
    for name, value in world.items():
        monkeypatch.setenv(name, str(value))
    monkeypatch.delenv("TORCHELASTIC_RESTART_COUNT", raising=False)
    args = ["--samples", "64", "--batch-size", "32", "--epochs", "1"]
    script.main([*args, "--checkpoint-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "backend gloo: 2 process(es) per machine but 1 GPU(s)" in out
    assert "device cpu" in out and "epoch 1/1  step 2" in out
    ckpt = TC.read_checkpoint(tmp_path / "ckpt-epoch0001.pt")
    assert ckpt["rng"]["cuda"] == []  # nothing of the GPU's was read
    assert (tmp_path / "final.pt").is_file()
    assert not torch.distributed.is_initialized()


# --- bad input, without torchrun (a world of one) ---------------------------------------------


@pytest.mark.slow
def test_resume_without_checkpoint_says_so(tmp_path, tag):
    args = [*COMMON, "--checkpoint-dir", str(tmp_path), "--resume"]
    proc, _ = run_direct(*args, tag=tag, world_size=1)
    assert proc.returncode == 2, proc.stderr
    assert f"--resume: no checkpoint in {tmp_path}" in proc.stderr


@pytest.mark.slow
def test_fresh_start_refuses_to_overwrite_checkpoints(tmp_path, tag):
    TC.save_checkpoint(tmp_path, 1, {"epoch": 1})
    proc, _ = run_direct(*COMMON, "--checkpoint-dir", str(tmp_path), tag=tag, world_size=1)
    assert proc.returncode == 2, proc.stderr
    assert "already holds checkpoints (ckpt-epoch0001.pt). Pass --resume" in proc.stderr


@pytest.mark.slow
def test_resume_with_only_damaged_checkpoints_fails_clearly(tmp_path, tag):
    for epoch in (1, 2):
        path = TC.save_checkpoint(tmp_path, epoch, {"epoch": epoch})
        path.write_bytes(b"garbage")
    proc, _ = run_direct(
        *COMMON, "--checkpoint-dir", str(tmp_path), "--resume", tag=tag, world_size=1
    )
    assert proc.returncode == 1, proc.stderr
    assert "no intact checkpoint in" in proc.stderr
    assert "ckpt-epoch0002.pt: sha256 mismatch" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_fashion_mnist_offline_says_what_to_do(tmp_path, tag, monkeypatch):
    # A proxy on a closed port: offline for sure, and fast, whether or not CI has a network.
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.setenv(var, "http://127.0.0.1:9")
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    args = ["--data", "fashion-mnist", "--data-dir", str(tmp_path), "--dry-run"]
    proc, _ = run_direct(*args, tag=tag, world_size=1)
    assert proc.returncode == 2, proc.stderr
    assert "FashionMNIST is not in" in proc.stderr and "--data synthetic" in proc.stderr


# --- determinism under torchrun ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_two_ranks_match_one_process(ref1, ref2):
    assert f"backend {BACKEND}" in ref1.output and f"backend {BACKEND}" in ref2.output
    assert device_of(ref1) == device_of(ref2) == ("cuda:0" if BACKEND == "nccl" else "cpu")
    assert "world size 2 on 1 node(s)" in ref2.output
    assert "global batch 32 = 2 rank(s) x 1 accumulation step(s) x 16" in ref2.output
    assert "global batch 32 = 1 rank(s) x 1 accumulation step(s) x 32" in ref1.output
    assert f"step {EPOCHS * 16}" in ref2.output
    assert ref2.output.count("epoch 1/3") == 1, "rank 0 alone logs"
    assert_same_params(ref2.params, ref1.params, "2 ranks vs 1 process")
    initial_change = max_diff(ref2.params, {k: torch.zeros_like(v) for k, v in ref2.params.items()})
    assert initial_change > 0.01  # it trained: a bound that means something


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_accumulation_with_no_sync_matches_one_process(ref1, tmp_path, tag):
    # 2 ranks x 2 micro-batches of 8: the same 32 samples per step as ref1's one batch.
    train(tmp_path, 2, "--epochs", str(EPOCHS), "--accumulate", "2", tag=tag)
    assert_same_params(params(tmp_path), ref1.params, "2 ranks x --accumulate 2 vs 1 process")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_resumed_run_matches_uninterrupted(ref2, tmp_path, tag):
    first = train(tmp_path, 2, "--epochs", "1", tag=tag)
    assert "epoch 1/1" in first.output
    second = train(tmp_path, 2, "--epochs", str(EPOCHS), "--resume", tag=tag)
    assert "resuming from ckpt-epoch0001.pt (epoch 1 done)" in second.output
    assert "epoch 1/3" not in second.output and "epoch 2/3" in second.output
    assert_same_params(params(tmp_path), ref2.params, "stopped after epoch 1 + resumed", exact=True)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_two_nodes_on_one_machine_train_as_one_world(ref2, tmp_path, tag):
    # Two torchrun "nodes" of one process each; c10d rendezvous on a port free right now.
    # With c10d --node-rank is ignored: either invocation may end up hosting rank 0.
    rdzv = [
        "--rdzv-backend=c10d",
        f"--rdzv-endpoint=127.0.0.1:{free_port()}",
        f"--rdzv-id=test-{tag[:8]}",
        "--local-addr=127.0.0.1",  # what a real node would set to its own interface
    ]
    # Under nccl each "node" needs GPUs of its own, as real nodes have: both would take GPU 0.
    node_env = [{"CUDA_VISIBLE_DEVICES": str(i)} if BACKEND == "nccl" else {} for i in range(2)]
    with ThreadPoolExecutor(2) as pool:
        futures = [
            pool.submit(
                train,
                tmp_path,
                1,
                "--epochs",
                str(EPOCHS),
                tag=tag,
                env=node_env[i],
                nnodes=2,
                extra_torchrun_args=rdzv,
                timeout_s=150,
                echo=False,
            )
            for i in range(2)
        ]
        outputs = [f.result().output for f in futures]
    assert sum("world size 2 on 2 node(s)" in out for out in outputs) == 1, "one rank 0"
    assert_same_params(params(tmp_path), ref2.params, "2 nodes x 1 process vs 1 node x 2")
