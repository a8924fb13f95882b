"""The checker of 05.ddp: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.

Each answer in VARIANTS runs for real under torchrun, with the checker's 2 processes and
options, and the checker judges what its rank 0 saved. They all run in one launch (fixture
`launched`); one more goes the whole way through the checker's own launch.
"""

import re
import shutil
from pathlib import Path

import pytest
import torch
from grading_helpers import ROOT, assert_fails, assert_passes
from session_once import once_per_session

from d2lgpu.grading import check


def ddp_variant(tmp_path, name, *edits):
    text = (ROOT / "solutions" / "05_ddp_train.py").read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return path


def test_ddp_exercise_script_is_not_attempted_and_a_missing_file_is_named(tmp_path):
    assert (
        check("05.ddp", ROOT / "exercises" / "05_ddp_train.py", quiet=True).status
        == "not attempted"
    )
    assert_fails("05.ddp", tmp_path / "nope.py", "there is no file")


def test_ddp_checker_uses_the_scripts_data_and_model():
    from d2lgpu.checks import ch05_ddp

    for folder in ("solutions", "exercises"):
        script = {}
        exec(compile((ROOT / folder / "05_ddp_train.py").read_text(), "script", "exec"), script)
        a, b = ch05_ddp.make_dataset(64, 3).tensors, script["make_dataset"](64, 3).tensors
        assert all(torch.equal(u, v) for u, v in zip(a, b, strict=True))
        with torch.random.fork_rng(devices=[]):
            theirs = script["make_model"](3).state_dict()
        mine = ch05_ddp.make_model(3).state_dict()
        assert all(torch.equal(mine[k], theirs[k]) for k in mine)


SET_EPOCH = "        sampler.set_epoch(epoch)  # a new order each epoch, the same on every rank\n"
SAMPLER = "DistributedSampler(dataset, shuffle=True, seed=args.seed)"
SAVE = "torch.save(model.state_dict(), args.out)"
# Answers a learner may write: the edits of the solution script that make each one.
VARIANTS = {
    "no_set_epoch": [(SET_EPOCH, "")],
    "no_ddp": [
        (
            'net = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)',
            "net = model",
        )
    ],
    "no_sampler": [
        (SET_EPOCH, ""),
        (f"sampler = {SAMPLER}\n", "gen = torch.Generator().manual_seed(args.seed)\n"),
        ("sampler=sampler)", "shuffle=True, generator=gen)"),
    ],
    "module_keys": [(SAVE, "torch.save(net.state_dict(), args.out)")],
    "no_seed": [(SAMPLER, "DistributedSampler(dataset, shuffle=True)")],
    # Correct, written differently: explicit replicas and rank, the wrapper's module saved.
    "explicit": [
        (
            SAMPLER,
            "DistributedSampler(dataset, num_replicas=world_size, rank=rank, seed=args.seed)",
        ),
        (SAVE, "torch.save(net.module.state_dict(), args.out)"),
    ],
    # Correct, written differently again: shuffle left at its default, the world size asked
    # for, the wrapper's keys stripped when saving.
    "stripped": [
        (SAMPLER, "DistributedSampler(dataset, seed=args.seed)"),
        (
            "batch_size=args.batch_size // world_size",
            "batch_size=args.batch_size // dist.get_world_size()",
        ),
        (
            SAVE,
            'torch.save({k.removeprefix("module."): v for k, v in net.state_dict().items()}, args.out)',
        ),
    ],
}
RUN_VARIANTS = ROOT / "tests" / "ddp_helpers" / "run_variants.py"


def checker_options():
    from d2lgpu.checks import ch05_ddp

    return [f"--{k.replace('_', '-')}={v}" for k, v in ch05_ddp.SETTINGS.items()]


@pytest.fixture(scope="session")
def launched(tmp_path_factory):
    """Every answer in VARIANTS run for real, under torchrun with the checker's 2 processes and
    options, all in one launch (ddp_helpers/run_variants.py: each launch costs seconds of CPU
    for torchrun and the imports), once per session (session_once.py): name -> (script, the
    file its rank 0 saved)."""
    from d2lgpu.checks import ch05_ddp
    from d2lgpu.launcher import launch

    def make(folder):
        runs = {
            name: (str(ddp_variant(folder, name, *edits)), str(folder / f"{name}.pt"))
            for name, edits in VARIANTS.items()
        }
        pairs = [path for script_and_out in runs.values() for path in script_and_out]
        args = [*checker_options(), "--", *pairs]
        launch(RUN_VARIANTS, nproc=ch05_ddp.NPROC, args=args, timeout_s=300, echo=False)
        return runs

    _, runs = once_per_session(tmp_path_factory, "ch05_variants", make)
    return {name: (Path(script), Path(out)) for name, (script, out) in runs.items()}


def as_launched(launched, name, monkeypatch):
    """The script of answer `name`; the checker's launch gives back what its real run saved."""
    import d2lgpu.launcher as launcher

    script, saved = launched[name]

    def replay(path, *, args, **kwargs):
        assert Path(path) == script and args[:-1] == checker_options(), (path, args)
        shutil.copy(saved, args[-1].removeprefix("--out="))
        return launcher.LaunchResult(0, "", 1.0)

    monkeypatch.setattr(launcher, "launch", replay)
    return script


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ddp_a_real_launch_names_a_missing_set_epoch(tmp_path):
    # The whole way, the checker's own torchrun launch included. The solution itself passes
    # in solutions/05_ddp.ipynb, whose stored PASS nbval compares.
    no_set_epoch = ddp_variant(tmp_path, "no_set_epoch", *VARIANTS["no_set_epoch"])
    assert_fails("05.ddp", no_set_epoch, "call sampler.set_epoch(epoch)")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ddp_real_mistakes_are_named(launched, monkeypatch):
    for name, hint in (
        ("no_set_epoch", ["call sampler.set_epoch(epoch)"]),
        ("no_ddp", ["never averaged their gradients", "DistributedDataParallel"]),
        ("no_sampler", ["each rank went through the whole data set", "DistributedSampler"]),
        ("module_keys", ["start with 'module.'"]),
        ("no_seed", ["default seed 0", "seed=args.seed"]),
    ):
        assert_fails("05.ddp", as_launched(launched, name, monkeypatch), *hint)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ddp_correct_answers_written_differently_pass(launched, monkeypatch):
    for name in ("explicit", "stripped"):
        assert_passes("05.ddp", as_launched(launched, name, monkeypatch))


def test_ddp_a_crashing_script_is_reported_with_its_own_error(tmp_path, monkeypatch):
    # What torchrun prints when a worker raises (recorded from a real run), without a launch.
    import d2lgpu.launcher as launcher

    output = (
        "2 process(es), training on cpu\n"
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/tmp/x/crash.py", line 83, in main\n'
        "[rank1]:     1 / 0\n"
        "[rank1]: ZeroDivisionError: division by zero\n"
        "E1121 22:40:00 torch/distributed/elastic/multiprocessing/api.py:900] failed\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main\n'
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
    )

    def failing_launch(script, *args, **kwargs):
        result = launcher.LaunchResult(1, output, 9.0)
        raise launcher.LaunchError("torchrun failed", result)

    monkeypatch.setattr(launcher, "launch", failing_launch)
    script = ddp_variant(tmp_path, "crash")
    result = assert_fails(
        "05.ddp",
        script,
        "ZeroDivisionError: division by zero",
        "line 83, in main",
        "torchrun --standalone",
    )
    assert "ChildFailedError" not in result.hint


def saves_as_if(state_of, monkeypatch):
    """Replace torchrun by a launch that saves what a script with some mistake would save."""
    import d2lgpu.launcher as launcher

    def fake_launch(script, *, args, **kwargs):
        out = next(a for a in args if a.startswith("--out="))
        torch.save(state_of(), out.removeprefix("--out="))
        return launcher.LaunchResult(0, "", 1.0)

    monkeypatch.setattr(launcher, "launch", fake_launch)


def test_ddp_each_known_mistake_is_named(tmp_path, monkeypatch):
    from d2lgpu.checks import ch05_ddp

    script = ddp_variant(tmp_path, "any")
    mistakes = ch05_ddp._mistakes(ch05_ddp.SETTINGS)
    assert len(mistakes) == 7
    for state, hint in mistakes:
        saves_as_if(lambda state=state: state, monkeypatch)
        assert_fails("05.ddp", script, hint)
    saves_as_if(ch05_ddp.reference, monkeypatch)
    assert_passes("05.ddp", script)


def test_ddp_a_hanging_script_is_reported_as_stopped_after_the_time_limit(tmp_path, monkeypatch):
    import d2lgpu.launcher as launcher

    # What torchrun prints when it is stopped (recorded from a real run), without a launch.
    output = (
        "2 process(es), training on cpu\n"
        "epoch 1: last batch loss 1.2345\n"
        "W1122 10:00:00 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/site-packages/torch/distributed/run.py", line 9, in main\n'
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 7 got signal: 15\n"
    )

    def hanging_launch(script, *args, timeout_s=None, **kwargs):
        result = launcher.LaunchResult(-15, output, timeout_s)
        raise launcher.LaunchError("timed out", result, timed_out=True)

    monkeypatch.setattr(launcher, "launch", hanging_launch)
    result = assert_fails(
        "05.ddp", ddp_variant(tmp_path, "hangs"), "torchrun was stopped after", "epoch 1"
    )
    assert "SignalException" not in result.hint and "elastic" not in result.hint
    # the launch's own limit stays inside the check's, leaving time to report
    limited = check("05.ddp", ddp_variant(tmp_path, "hangs2"), quiet=True, time_limit_s=60)
    seconds = float(re.search(r"stopped after (\d+) s", limited.hint).group(1))
    assert 20 <= seconds <= 35


def failing_launch(monkeypatch, output):
    """Make every torchrun launch fail with ``output``; returns the list of launched scripts."""
    import d2lgpu.launcher as launcher

    launches = []

    def launch(script, *args, **kwargs):
        launches.append(script)
        raise launcher.LaunchError("torchrun failed", launcher.LaunchResult(1, output, 9.0))

    monkeypatch.setattr(launcher, "launch", launch)
    return launches


def test_ddp_a_rank_killed_by_a_signal_is_retried_once_then_reported(tmp_path, monkeypatch):

    output = (
        "epoch 3: last batch loss 1.0509\n"
        "terminate called without an active exception\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
        "  exitcode  : -6 (pid: 7235)  (SIGABRT)\n"
    )
    launches = failing_launch(monkeypatch, output)
    script = ddp_variant(tmp_path, "aborts")
    result = assert_fails("05.ddp", script, "failed twice", "SIGABRT", "dist.barrier()")
    assert len(launches) == 2
    assert "ChildFailedError:" in result.hint  # the tail is shown as it is


def test_ddp_a_rank_that_exits_with_a_code_is_named_and_not_relaunched(tmp_path, monkeypatch):
    # torchrun's report for a rank that called sys.exit(3), recorded from a real run.
    report = (
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "Root Cause (first observed failure):\n"
        "[0]:\n"
        "  rank      : 1 (local_rank: 1)\n"
        "  exitcode  : {code} (pid: 15098) \n"
        "  error_file: <N/A>\n"
    )
    for code, printed in ((3, "epoch 1: last batch loss 1.2\n"), (2, "usage: train.py [-h]\n")):
        launches = failing_launch(monkeypatch, printed + report.format(code=code))
        result = assert_fails(
            "05.ddp",
            ddp_variant(tmp_path, f"exits_{code}"),
            f"rank 1 of the script exited with code {code}",
            f"sys.exit({code})",
            printed.strip(),
        )
        assert "signal" not in result.hint and "failed twice" not in result.hint
        assert len(launches) == 1  # an exit code is the script's doing: no second launch


def test_ddp_a_port_still_taken_after_launchs_own_retry_is_reported_with_pytorchs_words(
    tmp_path, monkeypatch
):
    # launch() itself launches once more when torchrun's port was taken (test_launcher.py);
    # a LaunchError that still says EADDRINUSE is reported as it is, and not launched again.
    taken = (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any "
        "local network address. port: 40235, useIpv6: false, code: -98, name: EADDRINUSE, "
        "message: address already in use\n"
    )
    launches = failing_launch(monkeypatch, taken)
    script = ddp_variant(tmp_path, "port_taken")
    assert_fails("05.ddp", script, "the script failed under torchrun", "EADDRINUSE")
    assert len(launches) == 1
