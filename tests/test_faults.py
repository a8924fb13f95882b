"""d2lgpu.faults: a rank dies when, and only when, the environment asks."""

import signal

import pytest

from d2lgpu import faults


def env(**values):
    return {k: str(v) for k, v in values.items()}


def test_nothing_is_due_without_the_variable():
    assert not faults.fault_due(5, 1, 2, env())
    assert not faults.fault_due(5, 1, 2, env(TRAIN_DDP_FAIL_RANK=1))


def test_the_last_rank_dies_at_the_step_by_default():
    asked = env(TRAIN_DDP_FAIL_AT_STEP=5)
    assert faults.fault_due(5, 1, 2, asked)
    assert faults.fault_due(5, 3, 4, asked)
    assert not faults.fault_due(5, 0, 2, asked)  # not the last rank
    assert not faults.fault_due(4, 1, 2, asked)  # not yet
    assert not faults.fault_due(6, 1, 2, asked)  # once only, at that step


def test_the_rank_can_be_chosen_and_restarts_run_through():
    asked = env(TRAIN_DDP_FAIL_AT_STEP=2, TRAIN_DDP_FAIL_RANK=0)
    assert faults.fault_due(2, 0, 4, asked)
    assert not faults.fault_due(2, 3, 4, asked)
    assert faults.fault_due(2, 0, 4, {**asked, "TORCHELASTIC_RESTART_COUNT": "0"})
    assert not faults.fault_due(2, 0, 4, {**asked, "TORCHELASTIC_RESTART_COUNT": "1"})


def test_maybe_inject_fault_sends_sigkill_to_itself(monkeypatch, capsys):
    killed = []
    monkeypatch.setattr(faults.os, "kill", lambda pid, sig: killed.append((pid, sig)))
    monkeypatch.setattr(faults.os, "getpid", lambda: 4242)
    monkeypatch.setenv("TRAIN_DDP_FAIL_AT_STEP", "3")
    monkeypatch.delenv("TRAIN_DDP_FAIL_RANK", raising=False)
    monkeypatch.delenv("TORCHELASTIC_RESTART_COUNT", raising=False)
    faults.maybe_inject_fault(2, 1, 2)
    assert killed == [] and capsys.readouterr().out == ""
    faults.maybe_inject_fault(3, 1, 2)
    assert killed == [(4242, signal.SIGKILL)]
    assert capsys.readouterr().out == "[rank 1] fault injection: SIGKILL after step 3\n"


@pytest.mark.parametrize("bad", ["x", "1.5"])
def test_a_malformed_step_is_an_error_not_a_silent_pass(bad):
    with pytest.raises(ValueError):
        faults.fault_due(1, 0, 1, env(TRAIN_DDP_FAIL_AT_STEP=bad))
