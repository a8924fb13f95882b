"""scripts/train_ddp.py under torchrun when things go wrong (CPU, gloo).

A rank killed mid-training ends the job fast; with --max-restarts the job resumes from its
checkpoint and ends where an uninterrupted run ends (fixture `ref2`, conftest.py); a damaged
newest checkpoint is skipped for the one before; SIGTERM to torchrun stops its workers,
SIGKILL to torchrun orphans them; --backend nccl without a GPU per process falls back to gloo.
Every test marks the processes it starts and fails if one outlives it.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
import torch
from ddp_helpers.procs import TAG, Output, stop, tagged_pids, wait_gone
from ddp_helpers.train_ddp import COMMON, EPOCHS, SCRIPT, assert_same_params, params, train

from d2lgpu.launcher import LaunchError, torchrun_command

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="requires Linux")


# --- faults ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_killed_rank_ends_the_job_quickly(tmp_path, tag):
    start = time.monotonic()
    with pytest.raises(LaunchError) as info:  # 50 epochs: it would run long if it went on
        train(
            tmp_path,
            2,
            "--epochs",
            "50",
            tag=tag,
            env={"TRAIN_DDP_FAIL_AT_STEP": "20"},
            timeout_s=60,
        )
    seconds = time.monotonic() - start
    print(f"job with a killed rank exited after {seconds:.1f} s (launch included)")
    err = info.value
    assert not err.timed_out, "the job hung instead of failing"
    assert "fault injection: SIGKILL after step 20" in err.result.output
    assert "failed with exit code 1" in str(err)
    assert "SIGKILL" in str(err), "the launcher's tail shows torchrun's report"
    assert "epoch 3/50" not in err.result.output


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_restart_resumes_from_checkpoint_and_matches(ref2, tmp_path, tag):
    # Rank 1 dies at step 24, in epoch 2; torchrun restarts both workers, which find the
    # checkpoint of epoch 1 and redo epoch 2 from there.
    result = train(
        tmp_path,
        2,
        "--epochs",
        str(EPOCHS),
        tag=tag,
        env={"TRAIN_DDP_FAIL_AT_STEP": "24"},
        extra_torchrun_args=["--max-restarts=1"],
        timeout_s=180,
    )
    assert "fault injection: SIGKILL after step 24" in result.output
    assert "resuming from ckpt-epoch0001.pt (epoch 1 done) after restart 1" in result.output
    assert "TORCH_DISABLE_SHARE_RDZV_TCP_STORE" not in result.output  # launch() sets it
    assert_same_params(params(tmp_path), ref2.params, "killed at step 24 + restarted", exact=True)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_damaged_newest_checkpoint_falls_back_to_the_previous(ref2, tmp_path, tag):
    ckpt_dir = tmp_path / "ckpt"
    shutil.copytree(ref2.dir, ckpt_dir)
    (ckpt_dir / "final.pt").unlink()
    newest = ckpt_dir / "ckpt-epoch0003.pt"
    data = bytearray(newest.read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit
    newest.write_bytes(data)
    result = train(ckpt_dir, 2, "--epochs", str(EPOCHS), "--resume", tag=tag)
    assert "skipping damaged checkpoint ckpt-epoch0003.pt: sha256 mismatch" in result.output
    assert "resuming from ckpt-epoch0002.pt (epoch 2 done)" in result.output
    assert_same_params(params(ckpt_dir), ref2.params, "newest checkpoint damaged", exact=True)


def start_torchrun(tmp_path, tag, *args):
    """A long run (10,000 epochs) under a bare torchrun, for the signal tests."""
    env = {**os.environ, TAG: tag, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    args = [*COMMON, "--epochs", "10000", "--checkpoint-dir", str(tmp_path), *args]
    # Its own log folder: not a torchelastic_* folder left in /tmp.
    cmd = torchrun_command(SCRIPT, 2, args, log_dir=tmp_path / "torchrun-logs")
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    return proc, Output(proc)


def workers_of(proc, tag):
    return sorted(set(tagged_pids(tag, "train_ddp.py")) - {proc.pid})


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_sigterm_to_torchrun_stops_its_workers(tmp_path, tag):
    proc, out = start_torchrun(tmp_path, tag)
    try:
        assert out.wait_for("epoch 2/", timeout_s=90), out.text
        workers = workers_of(proc, tag)
        assert len(workers) == 2
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        returncode = proc.wait(timeout=60)
        left = wait_gone(tag, timeout_s=10)
        print(f"torchrun and its workers gone {time.monotonic() - start:.1f} s after SIGTERM")
        assert returncode != 0
        assert not left, f"workers survived SIGTERM to torchrun: {left}"
    finally:
        stop(proc, tag)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_sigkill_to_torchrun_orphans_its_workers(tmp_path, tag):
    """Why no launcher of ours sends SIGKILL to torchrun first."""
    proc, out = start_torchrun(tmp_path, tag)
    try:
        assert out.wait_for("epoch 2/", timeout_s=90), out.text
        workers = workers_of(proc, tag)
        assert len(workers) == 2
        proc.kill()
        proc.wait()
        time.sleep(2)
        orphans = [pid for pid in workers if pid in tagged_pids(tag)]
        assert orphans == workers, "the workers were expected to outlive a SIGKILLed torchrun"
        for pid in orphans:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            assert ppid != proc.pid  # adopted by init (or a subreaper): not ours to reap
    finally:
        stop(proc, tag)  # kills them by their mark; the `tag` fixture checks they are gone


# --- bad input under torchrun --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.skipif(torch.cuda.device_count() >= 2, reason="checks the fallback: requires < 2 GPUs")
def test_nccl_without_a_gpu_per_process_falls_back_to_gloo(tmp_path, tag):
    # Also a smoke test of fp16 autocast + GradScaler + no_sync, in a --dry-run.
    ckpt_dir = tmp_path / "ckpt"
    args = ["--backend", "nccl", "--amp", "fp16", "--accumulate", "2", "--dry-run"]
    # And the warning about restarts with torchrun's shared store, which launch() turns off.
    result = train(
        ckpt_dir,
        2,
        *args,
        tag=tag,
        extra_torchrun_args=["--max-restarts=1"],
        env={"TORCH_DISABLE_SHARE_RDZV_TCP_STORE": "0"},
    )
    assert "--backend nccl needs one GPU per process" in result.output
    assert "falling back to gloo" in result.output
    assert "backend gloo" in result.output
    assert "dry run" in result.output and "epoch 1/1  step 2" in result.output
    assert "loss nan" not in result.output
    assert not ckpt_dir.exists(), "--dry-run writes nothing"
    assert "export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1" in result.output
