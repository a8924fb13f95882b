"""The checker of 05.ddp: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.

Each answer in VARIANTS runs for real under torchrun, with the checker's 2 processes and
options, and the checker judges what its rank 0 saved. They all run in one launch (fixture
`launched`); one more goes the whole way through the checker's own launch.
"""

import json
import os
import re
import shutil
from pathlib import Path

import pytest
import torch
from grading_helpers import ROOT, assert_fails, assert_passes, rule_fails
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
        assert mine.keys() == theirs.keys()
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


def saves_as_if(state_of, monkeypatch, calls=None):
    """Replace torchrun by a launch that saves what a script with some mistake would save and,
    with ``calls``, records on each rank those collectives as the script's own."""
    import d2lgpu.launcher as launcher
    from d2lgpu.checks._ch05_rank import RECORD_ENV_VAR

    def fake_launch(script, *, args, env, **kwargs):
        out = next(a for a in args if a.startswith("--out="))
        torch.save(state_of(), out.removeprefix("--out="))
        for rank, own in enumerate(calls or []):
            record = {"calls": own, "ended": {"how": "returned"}, "destroyed": True}
            (Path(env[RECORD_ENV_VAR]) / f"rank{rank}.json").write_text(json.dumps(record))
        return launcher.LaunchResult(0, "", 1.0)

    monkeypatch.setattr(launcher, "launch", fake_launch)


def test_ddp_each_known_mistake_is_named(tmp_path, monkeypatch):
    from d2lgpu.checks import ch05_ddp

    script = ddp_variant(tmp_path, "any")
    mistakes = ch05_ddp.mistakes(ch05_ddp.SETTINGS)
    assert len(mistakes) == 13
    for state, hint in mistakes:
        saves_as_if(lambda state=state: state, monkeypatch)
        assert_fails("05.ddp", script, hint)
    saves_as_if(lambda: ch05_ddp.reference(ch05_ddp.SETTINGS), monkeypatch)
    assert_passes("05.ddp", script)


def trained_as(
    order_of_epoch, batch, *, lr=0.1, seed=5, samples=240, epochs=3, summed=False, zero=True
):
    """Rank 0's parameters, trained here in one process with the exercise script's own data and
    model, in batches of ``batch`` taken in the order ``order_of_epoch(epoch)``: written apart
    from the checker's reference, so that a slip in it cannot agree with itself. ``summed``:
    each of the 2 ranks summed its loss (DDP averages the two sums); ``zero=False``: the
    gradients are never cleared."""
    script = {}
    # named as a test file: torchrun's processes run it, not the check's (the watch on the
    # answer's own reseeds would take this stand-in's make_model for the answer's code)
    source = (ROOT / "exercises" / "05_ddp_train.py").read_text()
    exec(compile(source, "test_torchrun_stand_in.py", "exec"), script)
    X, y = script["make_dataset"](samples, seed).tensors
    with torch.random.fork_rng(devices=[]):
        model = script["make_model"](seed)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for epoch in range(epochs):
        order = order_of_epoch(epoch)
        for start in range(0, len(order), batch):
            index = order[start : start + batch]
            reduction = "sum" if summed else "mean"
            loss = torch.nn.functional.cross_entropy(model(X[index]), y[index], reduction=reduction)
            if summed:
                loss = loss / 2  # DDP's average of the 2 ranks' sums
            if zero:
                opt.zero_grad()
            loss.backward()
            opt.step()
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def sampler_order(seed):
    # DistributedSampler(shuffle=True, seed=seed) after set_epoch(epoch), all ranks together
    return lambda epoch: torch.randperm(240, generator=torch.Generator().manual_seed(seed + epoch))


def loader_order(batch):
    # DataLoader(shuffle=True, generator=seeded with 5), the single-process script's own loader
    from torch.utils.data import DataLoader

    loader = DataLoader(
        torch.arange(240),
        batch_size=batch,
        shuffle=True,
        generator=torch.Generator().manual_seed(5),
    )
    return lambda epoch: torch.cat(list(loader))


UNSHARDED = (
    "each rank went through the whole data set (the parameters equal single-process training "
    "on all of it): give the DataLoader a DistributedSampler(dataset, shuffle=True, "
    "seed=args.seed) instead of shuffle=True, so each rank gets its own 1/world_size of every "
    "epoch"
)
# Each mistake's parameters on rank 0, made apart from the checker, and its whole hint.
MISTAKES = {
    "no set_epoch": (
        lambda: trained_as(lambda epoch: sampler_order(5)(0), 32),
        "every epoch used the same order (that of epoch 0): call sampler.set_epoch(epoch) at "
        "the start of each epoch; DistributedSampler shuffles with seed + epoch",
    ),
    "set_epoch after the epoch": (
        lambda: trained_as(lambda epoch: sampler_order(5)(max(epoch - 1, 0)), 32),
        "each epoch used the order of the epoch before (epochs 0 and 1 both epoch 0's): "
        "sampler.set_epoch(epoch) came after the epoch's batches, or set epoch - 1. Call it at "
        "the start of each epoch, before the loop over the loader: the loader's iterator draws "
        "the order as it starts",
    ),
    "set_epoch from 1": (
        lambda: trained_as(lambda epoch: sampler_order(5)(epoch + 1), 32),
        "each epoch used the order of the epoch after it (epoch 0 drew epoch 1's): "
        "sampler.set_epoch was given epoch + 1, or the epochs were counted from 1. Give it the "
        "epoch counted from 0, as range(epochs) counts: DistributedSampler shuffles with seed + "
        "epoch",
    ),
    "no DDP": (
        lambda: trained_as(lambda epoch: sampler_order(5)(epoch)[0::2], 16),
        "rank 0's parameters equal training on its own share of the data alone: the ranks never "
        "averaged their gradients, or every rank was given the same share (a DistributedSampler "
        "told rank=0 on each rank) and averaged copies of it. Wrap the model in "
        "DistributedDataParallel and train through the wrapper (net = DDP(model); opt built on "
        "its parameters), and let each rank's sampler take its own rank (the default, "
        "dist.get_rank())",
    ),
    "no sampler": (lambda: trained_as(loader_order(32), 32), UNSHARDED),
    "no sampler, per-rank batch": (lambda: trained_as(loader_order(16), 16), UNSHARDED),
    "global batch per rank": (
        lambda: trained_as(sampler_order(5), 64),
        "each rank used the whole global batch (32) per step, so the global batch was 64: give "
        "each rank batch_size // world_size examples per step",
    ),
    "default seed": (
        lambda: trained_as(sampler_order(0), 32),
        "the data was shuffled with DistributedSampler's default seed 0, not --seed: pass "
        "seed=args.seed, DistributedSampler(dataset, shuffle=True, seed=args.seed)",
    ),
    "never shuffled": (
        lambda: trained_as(lambda epoch: torch.arange(240), 32),
        "the data was never shuffled: DistributedSampler(dataset, shuffle=True, seed=args.seed) "
        "shuffles it, as the single-process script's loader did",
    ),
    "drop_last": (  # 240 examples: 7 global batches of 32, then the 16 that drop_last drops
        lambda: trained_as(lambda epoch: sampler_order(5)(epoch)[:224], 32),
        "each epoch's last, partial batch was dropped (DataLoader(drop_last=True)): keep it, as "
        "the single-process script does; DistributedSampler already gives every rank the same "
        "number of examples, so the ranks stay in step",
    ),
    "lr times world size": (
        lambda: trained_as(sampler_order(5), 32, lr=0.2),
        "the parameters equal single-process training with the learning rate times 2, the world "
        "size (lr x world_size, the linear scaling rule): DDP already averages the gradients over "
        "the global batch, so one process's lr is the right one. Keep --lr as given",
    ),
    "loss summed per rank": (
        lambda: trained_as(sampler_order(5), 32, summed=True),
        "the parameters equal single-process training on each rank's loss summed over its batch "
        "(F.cross_entropy(..., reduction='sum')), not averaged: every step was batch_size // "
        "world_size times too large. Keep the mean (reduction='mean', the default), as the "
        "single-process script does; DDP then averages the ranks' means",
    ),
    "no zero_grad": (
        lambda: trained_as(sampler_order(5), 32, zero=False),
        "the parameters equal single-process training whose gradients are never cleared: "
        "without opt.zero_grad() each backward adds to the gradients of every step before (DDP "
        "averages what a backward adds, and .grad accumulates it). Call opt.zero_grad() before "
        "each loss.backward(), as the single-process script does",
    ),
}


FIRST_LINE = (
    "torchrun ran the script with 2 processes and rank 0 alone saved the model's state_dict "
    "(keys without 'module.')"
)


@pytest.mark.parametrize("mistake", MISTAKES)
def test_ddp_each_mistake_made_apart_from_the_checker_gets_its_whole_hint(
    mistake, tmp_path, monkeypatch
):
    state, hint = MISTAKES[mistake]
    saves_as_if(state, monkeypatch)
    result = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), hint)
    assert result.hint == hint, result.hint
    assert result.passed == [FIRST_LINE]


def test_ddp_training_as_distributed_sampler_orders_it_passes_with_every_line(
    tmp_path, monkeypatch
):
    saves_as_if(lambda: trained_as(sampler_order(5), 32), monkeypatch)
    result = assert_passes("05.ddp", ddp_variant(tmp_path, "any"))
    assert result.passed == [
        FIRST_LINE,
        "after 3 epochs its parameters match single-process training on the same global batch of "
        "32, shuffled per epoch as DistributedSampler does (rtol 0.0001, atol 1e-05)",
        "the script leaves the gradients' averaging to DDP (no collective of its own carrying a "
        "model's worth of bytes), and each rank's model runs only its share of the examples",
        "every rank met the others at dist.barrier() after rank 0's save and left with "
        "dist.destroy_process_group()",
        "the ranks' backend fits the GPUs they see (gloo on the CPU with fewer GPUs than "
        "processes, nccl with one each)",
        "with 4 processes the parameters match as well (nothing written in for 2)",
        "the comparison can tell: no set_epoch, no DistributedSampler, a sampler without "
        "seed=args.seed, no DDP wrapper, a per-rank batch of the global size, a dropped last "
        "batch, an lr scaled by the world size, a loss summed per rank or gradients never "
        "cleared would each have missed the reference",
    ]


def test_ddp_parameters_within_the_tolerance_of_the_reference_pass(tmp_path, monkeypatch):
    # The ranks' all-reduce adds in another order than one process: the last bits differ.
    state = trained_as(sampler_order(5), 32)
    saves_as_if(lambda: {k: v + 5e-6 for k, v in state.items()}, monkeypatch)
    assert_passes("05.ddp", ddp_variant(tmp_path, "any"))
    saves_as_if(lambda: {k: v + 5e-5 for k, v in state.items()}, monkeypatch)
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "differ from single-process").hint
    assert "by up to 5e-05 (tolerance: rtol 0.0001, atol 1e-05)" in hint, hint


PARAMETER_BYTES = (20 * 32 + 32 + 32 * 4 + 4) * 4  # the exercise model's, in float32


def collective(kind, nbytes):
    return {"kind": kind, "shape": [nbytes // 4], "nbytes": nbytes}


def test_ddp_the_scripts_own_collectives_may_carry_less_than_the_model(tmp_path, monkeypatch):
    # A loss all-reduced for printing, barriers of any size: DDP's averaging is left alone.
    below = [collective("all_reduce", PARAMETER_BYTES - 4), collective("barrier", 10**6)]
    calls = [[collective("barrier", 4)], below]
    saves_as_if(lambda: trained_as(sampler_order(5), 32), monkeypatch, calls=calls)
    assert_passes("05.ddp", ddp_variant(tmp_path, "any"))


def test_ddp_a_gradient_averaged_again_by_hand_is_named_with_its_rank_and_bytes(
    tmp_path, monkeypatch
):
    # Every gradient all-reduced by hand on rank 1 (a model's worth of bytes), beside a loss.
    by_hand = [collective("all_reduce", PARAMETER_BYTES - 4), collective("broadcast", 4)]
    calls = [[collective("barrier", 4)], [*by_hand, collective("barrier", 4)]]
    saves_as_if(lambda: trained_as(sampler_order(5), 32), monkeypatch, calls=calls)
    result = assert_fails("05.ddp", ddp_variant(tmp_path, "any"))
    assert result.hint == (
        "besides DDP's own all-reduces, rank 1 of the script called 2 collectives itself "
        f"(all_reduce, broadcast: {PARAMETER_BYTES} bytes; the model's parameters take "
        f"{PARAMETER_BYTES}): an extra collective. DDP's backward already averages the "
        "gradients, so averaging them again by hand (dist.all_reduce on each p.grad) sends "
        "every gradient twice for the same values. Leave it to DDP"
    )
    assert len(result.passed) == 2  # the save, and the parameters


def test_ddp_parameters_broadcast_by_hand_are_named_as_a_broadcast(tmp_path, monkeypatch):
    # Rank 0's parameters sent to the others with dist.broadcast: the hint names what was
    # sent, not a hand all-reduce of the gradients.
    sent = [collective("broadcast", PARAMETER_BYTES), collective("barrier", 4)]
    saves_as_if(lambda: trained_as(sampler_order(5), 32), monkeypatch, calls=[sent, sent])
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "dist.broadcast").hint
    assert "rank 0 of the script called 1 collective itself (broadcast" in hint, hint
    assert "already broadcasts rank 0's weights once" in hint, hint
    assert "all_reduce" not in hint, hint


def saves_records(monkeypatch, records_of, states=None):
    """Replace torchrun by a launch that saves the reference (or ``states[nproc]``) and writes
    ``records_of(out, nproc)``, each rank's record."""
    import d2lgpu.launcher as launcher
    from d2lgpu.checks._ch05_rank import RECORD_ENV_VAR

    def fake_launch(script, *, args, env, nproc, **kwargs):
        out = next(a for a in args if a.startswith("--out=")).removeprefix("--out=")
        state = (states or {}).get(nproc) or trained_as(sampler_order(5), 32)
        torch.save(state, out)
        for rank, record in enumerate(records_of(out, nproc)):
            (Path(env[RECORD_ENV_VAR]) / f"rank{rank}.json").write_text(json.dumps(record))
        return launcher.LaunchResult(0, "", 1.0)

    monkeypatch.setattr(launcher, "launch", fake_launch)


def rank_record(**changes):
    """What a right script's rank records, with ``changes``."""
    barrier = [collective("barrier", 4)]
    return {"calls": barrier, "ended": {"how": "returned"}, "saves": [], "destroyed": True,
            "backend": "gloo", "gpus": 0, "devices": ["cpu"], **changes}  # fmt: skip


def test_ddp_a_rank_other_than_0_saving_the_checkpoint_is_named(tmp_path, monkeypatch):
    def every_rank_saves(out, nproc):
        return [rank_record(saves=[out]) for _ in range(nproc)]

    saves_records(monkeypatch, every_rank_saves)
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "rank 1 also saved").hint
    assert "(torch.save to final.pt)" in hint and "Save on rank 0 only" in hint, hint
    # a temporary file next to --out is the checkpoint too; one elsewhere is the rank's own
    saves_records(monkeypatch, lambda out, n: [rank_record(), rank_record(saves=[out + ".tmp"])])
    assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "rank 1 also saved")
    elsewhere = str(tmp_path / "rank1_log.pt")
    saves_records(monkeypatch, lambda out, n: [rank_record(saves=[out]), rank_record(saves=[elsewhere])])  # fmt: skip
    assert_passes("05.ddp", ddp_variant(tmp_path, "any"))


def test_ddp_leaving_without_a_barrier_or_destroy_process_group_is_named(tmp_path, monkeypatch):
    neither = rank_record(calls=[], destroyed=False)
    saves_records(monkeypatch, lambda out, n: [neither] * n)
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "destroy_process_group").hint
    assert hint.startswith(
        "rank 0 never called dist.destroy_process_group() (nor dist.barrier() before it)"
    ), hint
    saves_records(monkeypatch, lambda out, n: [rank_record(calls=[])] * n)
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "without dist.barrier").hint
    # a rank that ended by an error or wrote no record is judged by other rules
    saves_records(monkeypatch, lambda out, n: [{}, {**neither, "ended": {"how": "error"}}])
    assert_passes("05.ddp", ddp_variant(tmp_path, "any"))


def test_ddp_a_backend_that_does_not_fit_the_gpus_is_named():
    # Seen only where the ranks see a GPU: on a CPU machine every rank records gpus 0.
    from d2lgpu.checks._ch05_rules import check_backend
    from d2lgpu.grading import CheckFailed

    check_backend([rank_record(), rank_record()])
    check_backend([rank_record(gpus=1)] * 2)  # one GPU for two processes: gloo on the CPU
    nccl = rank_record(backend="nccl", gpus=2, devices=["cuda:0"])
    check_backend([nccl, {**nccl, "devices": ["cuda:1"]}])
    with pytest.raises(CheckFailed, match=r"rank 0 joined with gloo but put the model on cuda:0"):
        check_backend([rank_record(gpus=1, devices=["cuda:0"])] * 2)
    with pytest.raises(CheckFailed, match=r"gloo although every process has a GPU of its own"):
        check_backend([rank_record(gpus=2)] * 2)


def test_ddp_a_world_size_written_in_as_two_is_named_by_the_run_with_four_ranks(
    tmp_path, monkeypatch
):
    right = [rank_record(), rank_record()]
    # 4 ranks of batch_size // 2 each: a global batch of 64
    as_if_two = {4: trained_as(sampler_order(5), 64)}
    saves_records(monkeypatch, lambda out, n: right, states=as_if_two)
    result = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "written in as 2")
    assert "with 4 they equal training on a global batch of 64" in result.hint, result.hint
    assert len(result.passed) == 5, result.passed
    state = trained_as(sampler_order(5), 32)
    other = {4: {k: v + 1e-3 for k, v in state.items()}}
    saves_records(monkeypatch, lambda out, n: right, states=other)
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "holds only for 2 processes").hint
    assert "with 4 they differ from it by up to 0.001" in hint, hint


def test_the_recorder_notes_saves_destroy_backend_gpus_and_devices(tmp_path):
    # One rank, for real: a world of 1 over gloo, a DDP-wrapped model, a save between two
    # barriers, a destroy.
    from ddp_helpers.procs import fresh_python

    from d2lgpu.checks._ch05_rank import RECORD_ENV_VAR, SITE

    (tmp_path / "sitecustomize.py").write_text(SITE)
    script = tmp_path / "one_rank.py"
    script.write_text(
        "import torch, torch.distributed as dist\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "dist.init_process_group('gloo')\n"
        "net = DDP(torch.nn.Linear(2, 2))\n"
        "dist.barrier()\n"  # one barrier before the save, one after it
        f"torch.save(net.module.state_dict(), {str(tmp_path / 'out.pt')!r})\n"
        "dist.barrier()\n"
        "dist.destroy_process_group()\n"
    )
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", RANK="0", WORLD_SIZE="1",
               MASTER_ADDR="127.0.0.1", MASTER_PORT="0", LOCAL_RANK="0")  # fmt: skip
    env[RECORD_ENV_VAR] = str(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    run = fresh_python(str(script), timeout=120, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    record = json.loads((tmp_path / "rank0.json").read_text())
    assert record["saves"] == [str(tmp_path / "out.pt")]
    assert (record["destroyed"], record["backend"], record["gpus"]) == (True, "gloo", 0)
    assert record["devices"] == ["cpu"]
    assert [c["kind"] for c in record["calls"]] == ["barrier", "barrier"]
    assert record["barriers_at_save"] == 1
    assert record["ended"] == {"how": "returned"}


def test_ddp_an_answer_that_is_not_a_path_or_names_no_file_is_told_what_to_pass(tmp_path):
    result = assert_fails("05.ddp", 42)
    assert result.hint == (
        "pass the path of your script (a str or Path), not an object of type int: "
        "check('05.ddp', '05_ddp_train.py')"
    )
    missing = tmp_path / "nope.py"
    for answer in (str(missing), missing):
        assert assert_fails("05.ddp", answer).hint == (
            f"there is no file {str(missing)!r} (looked in {Path.cwd()}): pass the path of your "
            "script; from a notebook in work/exercises/, '05_ddp_train.py' is "
            "work/exercises/05_ddp_train.py"
        )


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
    assert result.hint == (
        "torchrun failed twice without a Python error from the script: a rank was killed by a "
        "signal; a rank aborted ('terminate called ...'), typically while leaving: call "
        "dist.barrier() before dist.destroy_process_group(), so the ranks leave together. The "
        "last lines of its output:\n" + output.strip()
    )  # the tail is shown as it is


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


# ---------------------------------------------------------------------------------------------
# How the checker launches the script and reads a failed launch (_ch05_launch), without torchrun


def launches_as(monkeypatch, *outcomes):
    """Replace torchrun by launches that each end as the next of ``outcomes``: ``(records,
    output)`` writes each rank's record and fails with that output (None: succeeds).
    Returns the list of each launch's arguments, with the recorder file it found."""
    import d2lgpu.launcher as launcher
    from d2lgpu.checks._ch05_rank import RECORD_ENV_VAR

    made, left = [], list(outcomes)

    def launch(path, **kwargs):
        folder = Path(kwargs["env"][RECORD_ENV_VAR])
        made.append({"path": path, **kwargs, "site": (folder / "sitecustomize.py").read_text()})
        records, output = left.pop(0)
        for rank, record in enumerate(records):
            (folder / f"rank{rank}.json").write_text(json.dumps(record))
        if output is not None:
            raise launcher.LaunchError("failed", launcher.LaunchResult(1, output, 2.0))
        return launcher.LaunchResult(0, "", 1.0)

    monkeypatch.setattr(launcher, "launch", launch)
    return made


def launched_hint(path, monkeypatch, *outcomes):
    from d2lgpu.checks._ch05_launch import launch_script
    from d2lgpu.grading import CheckFailed

    launches_as(monkeypatch, *outcomes)
    with pytest.raises(CheckFailed) as failed:
        launch_script(path, [])
    return str(failed.value)


def test_the_launch_is_torchrun_with_two_ranks_each_importing_the_recorder_first(
    tmp_path, monkeypatch
):
    from d2lgpu.checks import _guard
    from d2lgpu.checks._ch05_launch import launch_script
    from d2lgpu.checks._ch05_rank import RECORD_ENV_VAR, SITE

    script = tmp_path / "train.py"
    record = {"calls": [], "ended": {"how": "returned"}}
    monkeypatch.setenv("PYTHONPATH", "/the/learners/path")
    made = launches_as(monkeypatch, ([record, record], None))
    assert launch_script(script, ["--epochs=3"]) == [record, record]
    [launch] = made
    folder = launch["env"][RECORD_ENV_VAR]
    assert Path(folder).name.startswith("d2lgpu-ddp-") and not Path(folder).exists()
    assert launch["env"]["PYTHONPATH"] == os.pathsep.join([folder, "/the/learners/path"])
    assert launch["site"] == SITE
    assert (launch["path"], launch["nproc"], launch["args"]) == (script, 2, ["--epochs=3"])
    assert (launch["timeout_s"], launch["echo"], launch["tail_lines"]) == (240, False, 15)
    # no PYTHONPATH of the learner's: the recorder's folder alone; a rank that wrote no record
    monkeypatch.delenv("PYTHONPATH")
    made = launches_as(monkeypatch, ([record], None))
    assert launch_script(script, []) == [record, {}]
    assert made[0]["env"]["PYTHONPATH"] == made[0]["env"][RECORD_ENV_VAR]
    # within the check's time limit, 25 s kept to stop torchrun and report; 5 s at the least
    for left, timeout in [(1000.0, 240), (100.0, 75.0), (40.0, 15.0), (20.0, 5.0)]:
        monkeypatch.setattr(_guard, "remaining_s", lambda left=left: left)
        made = launches_as(monkeypatch, ([record], None))
        launch_script(script, [])
        assert made[0]["timeout_s"] == timeout, (left, made[0]["timeout_s"])


LOST = "RuntimeError: Connection closed by peer [127.0.0.1]:29500"


def test_a_lost_peer_is_reported_as_the_rank_whose_own_error_caused_it(tmp_path, monkeypatch):
    script = tmp_path / "train.py"
    output = f"[rank0]: Traceback (most recent call last):\n[rank0]: {LOST}\n"
    own = {"how": "error", "what": "ValueError: bad shape", "line": 41, "text": "x.view(3)"}
    records = [{"ended": {"how": "error", "what": LOST}}, {"ended": own}]
    assert launched_hint(script, monkeypatch, (records, output)) == (
        "the script failed under torchrun with 2 processes: rank 1: ValueError: bad shape "
        "(line 41: `x.view(3)`). Run it yourself to see all of its output: torchrun "
        f"--standalone --nproc-per-node=2 {script}"
    )
    # without the line it was raised at; and no rank's own error: the lost peer as it is
    records[1]["ended"] = {"how": "error", "what": "ValueError: bad shape"}
    hint = launched_hint(script, monkeypatch, (records, output))
    assert hint.startswith("the script failed under torchrun with 2 processes: rank 1: "
                           "ValueError: bad shape. Run it yourself")  # fmt: skip
    # a rank that wrote no record is passed over; a frame printed with its rank's prefix
    framed = f'[rank1]:   File "{script}", line 41, in forward\n[rank1]: ValueError: bad\n'
    hint = launched_hint(script, monkeypatch, ([{}, {"ended": own}], framed))
    assert hint.startswith(
        f'the script failed under torchrun with 2 processes: ValueError: bad (File "{script}", '
        "line 41, in forward). Run it yourself"
    ), hint
    # rank 0 wrote no record at all: passed over in the search for the cause
    hint = launched_hint(script, monkeypatch, ([{}, {"ended": own}], output))
    assert hint.startswith("the script failed under torchrun with 2 processes: rank 1: "), hint
    records[1]["ended"] = {"how": "error", "what": LOST}
    hint = launched_hint(script, monkeypatch, (records, output))
    assert hint.startswith(f"the script failed under torchrun with 2 processes: {LOST}. Run"), hint


def test_a_rank_that_left_early_is_named_through_the_launch(tmp_path, monkeypatch):
    records = [{"ended": {"how": "error", "what": LOST}}, {"ended": {"how": "returned"}}]
    assert launched_hint(tmp_path / "t.py", monkeypatch, (records, f"[rank0]: {LOST}\n")) == (
        "rank 1 returned from the script: it left early while the others still waited in a "
        "collective, which then lost their peer (gloo's 'Connection closed by peer' is their "
        "error, not the cause). Every rank must reach the same collectives (DDP's all-reduces, "
        "dist.barrier(), destroy_process_group) and end the script normally; rank 0 alone "
        "saves, and the others go on to the barrier too"
    )


def test_an_early_exit_is_preferred_to_a_return_and_named_with_its_line():
    from d2lgpu.checks._ch05_launch import left_early_hint

    exit_at = {"how": "exit", "code": 0, "line": 74, "text": "sys.exit(0)"}
    records = [{"ended": {"how": "returned"}}, {"ended": exit_at}, {"ended": {"how": "exit"}}]
    hint = left_early_hint(records, LOST)
    assert hint.startswith(
        "rank 1 called sys.exit(0) at line 74 (`sys.exit(0)`): it left early while the others "
        "still waited in a collective, which then lost their peer (gloo's 'Connection closed "
        "by peer' is their error, not the cause). Every rank must reach"
    ), hint
    records[1]["ended"] = {"how": "exit", "code": 2}
    assert left_early_hint(records, LOST).startswith("rank 1 called sys.exit(2): it left early")
    assert left_early_hint([{}, {"ended": {"how": "error"}}], LOST) is None
    assert left_early_hint([{"ended": {"how": "returned"}}], None) is None


def test_torchruns_own_report_is_left_out_and_a_workers_error_is_found_with_where():
    from d2lgpu.checks._ch05_launch import _exit_code, _script_error, _script_lines

    output = (
        "epoch 1\n"
        '  File "/x/train.py", line 9, in main\n'
        "[rank1]: KeyError: 'lr'\n"
        "W torch/distributed/elastic/agent: stopping\n"
        "later\n"
    )
    assert _script_lines(output) == ["epoch 1", '  File "/x/train.py", line 9, in main',
                                     "[rank1]: KeyError: 'lr'"]  # fmt: skip
    assert _script_lines("a\ntorch.distributed.elastic.errors: x\nb") == ["a"]
    assert _script_error(output) == "KeyError: 'lr' (File \"/x/train.py\", line 9, in main)"
    assert _script_error("KeyboardInterrupt: stopped\n") == "KeyboardInterrupt: stopped"
    assert _script_error("ValueError without a colon\n") is None
    assert _script_error("[rank0]: ChildFailedError: x\nValueError: y\n") is None
    assert _script_error("SignalException: x\nValueError: y\n") is None
    assert _exit_code("no exit code here") is None and _exit_code("exitcode  : -6 (pid") == -6


def test_a_time_out_an_exit_code_and_a_signal_each_get_their_whole_hint(tmp_path, monkeypatch):
    import d2lgpu.launcher as launcher
    from d2lgpu.checks._ch05_launch import _exit_code_hint, _no_script_error_hint, _timed_out_hint

    printed = "".join(f"line {k}\n" for k in range(20))
    error = launcher.LaunchError("x", launcher.LaunchResult(1, printed + "  rank      : 1\n", 1.0))
    tail = "\n".join(f"line {k}" for k in range(6, 20)) + "\n  rank      : 1"
    assert _timed_out_hint(error, 61.4) == (
        "torchrun was stopped after 61 s: the script did not finish in time. A rank that waits "
        "forever (in a collective that another rank never reaches, at a barrier, in an endless "
        "loop) keeps the job running; make every rank take the same steps. The last lines the "
        f"script printed:\n{tail}"
    )
    assert _exit_code_hint(error, 3) == (
        "rank 1 of the script exited with code 3, without a Python error: something in it "
        "called sys.exit(3) (or exit(), os._exit(), argparse refusing an option). Every rank "
        "must train to the end and return normally; the checker passes the script's own options "
        "(--epochs, --batch-size, --lr, --seed, --out), so keep them. The last lines the script "
        f"printed:\n{tail}"
    )
    silent = launcher.LaunchError("x", launcher.LaunchResult(1, "", 1.0))
    assert _exit_code_hint(silent, 1).startswith("a rank of the script exited with code 1")
    assert _exit_code_hint(silent, 1).endswith("printed:\n(nothing)")
    assert _timed_out_hint(silent, 5).endswith("printed:\n(nothing)")
    lines = "".join(f"out {k}\n" for k in range(30))
    assert _no_script_error_hint(launcher.LaunchError("x", launcher.LaunchResult(1, lines, 1))) == (
        "torchrun failed twice without a Python error from the script: a rank was killed by a "
        "signal. The last lines of its output:\n" + "\n".join(f"out {k}" for k in range(6, 30))
    )
    # exit code 1 is the script's (no second launch); 0 or a signal's is not
    hint = launched_hint(tmp_path / "t.py", monkeypatch, ([], "  exitcode  : 1 (pid: 7)\n"))
    assert hint.startswith("a rank of the script exited with code 1"), hint
    for code in ("0", "-9"):
        output = f"  exitcode  : {code} (pid: 7)\n"
        hint = launched_hint(tmp_path / "t.py", monkeypatch, ([], output), ([], output))
        assert hint.startswith("torchrun failed twice without a Python error"), hint


def test_ddp_the_rules_on_the_ranks_records_word_for_word():
    from d2lgpu.checks import _ch05_rules as rules

    extra = "besides DDP's own all-reduces, rank {} of the script called {} itself ({}: {} bytes"
    mixed = [collective("all_reduce", 600), collective("broadcast", 500), collective("barrier", 4)]
    assert rule_fails(
        rules.check_own_collectives, [rank_record(), rank_record(calls=mixed)], 1000
    ) == (
        extra.format(1, "2 collectives", "all_reduce, broadcast", 1100) + "; the model's "
        "parameters take 1000): an extra collective. DDP's backward already averages the "
        "gradients, so averaging them again by hand (dist.all_reduce on each p.grad) sends every "
        "gradient twice for the same values. Leave it to DDP"
    )
    sent = [collective("broadcast", 600), collective("all_reduce", 500)]
    assert rule_fails(rules.check_own_collectives, [rank_record(calls=sent)], 1000) == (
        extra.format(0, "2 collectives", "all_reduce, broadcast", 1100) + "; the model's "
        "parameters take 1000): an extra collective. The script sent parameters with "
        "dist.broadcast itself: DDP's constructor already broadcasts rank 0's weights once, and "
        "since every rank then steps with the same averaged gradients, the replicas stay equal "
        "without another broadcast. Let every rank call opt.step() and send nothing yourself. "
        "Leave it to DDP"
    )
    gathered = [collective("all_gather", 1000)]  # the model's bytes exactly: flagged
    assert rule_fails(rules.check_own_collectives, [rank_record(calls=gathered)], 1000) == (
        extra.format(0, "1 collective", "all_gather", 1000) + "; the model's parameters take "
        "1000): an extra collective. DDP keeps the replicas equal by itself (its backward "
        "averages the gradients), so the script's own dist.all_gather of a model's worth of "
        "bytes is traffic DDP does not need. Leave it to DDP"
    )
    fewer = [collective("all_reduce", 999), collective("barrier", 4000)]  # barriers not counted
    rules.check_own_collectives([rank_record(calls=fewer)], 1000)
    by_hand = rank_record(calls=mixed, devices=[])  # no DDP: the gradients averaged by hand
    assert rule_fails(rules.check_own_collectives, [by_hand], 1000) == (
        "rank 0 of the script called 2 collectives itself (all_reduce, broadcast: 1100 bytes; "
        "the model's parameters take 1000) and never wrapped the model in "
        "DistributedDataParallel: the exercise asks for DDP, whose backward averages the "
        "gradients bucket by bucket while backward still runs. Wrap the model (net = DDP(model)), "
        "train through the wrapper, and send nothing yourself"
    )

    saved = [rank_record(saves=["/x/out.pt"]), rank_record(saves=["/x/out.pt.tmp"])]
    assert rule_fails(rules.check_saves, saved, Path("/x/out.pt")) == (
        "rank 1 also saved the checkpoint (torch.save to out.pt.tmp): every rank wrote the same "
        "file at once, and writes that race each other can leave it torn or half-written. Save "
        "on rank 0 only (if rank == 0: torch.save(model.state_dict(), args.out)); the other "
        "ranks go on to dist.barrier()"
    )
    rules.check_saves([rank_record(saves=["/x/out.pt"]), rank_record(saves=["/y/out.pt"])],
                      Path("/x/out.pt"))  # fmt: skip
    assert rule_fails(rules.check_leaving, [rank_record(calls=[], destroyed=False)]) == (
        "rank 0 never called dist.destroy_process_group() (nor dist.barrier() before it): the "
        "process group is left to be torn down at exit, rank by rank. After rank 0's save, let "
        "all ranks meet at dist.barrier() and leave the group together with "
        "dist.destroy_process_group(), as the exercise asks"
    )
    assert rule_fails(rules.check_leaving, [rank_record(destroyed=False)]).startswith(
        "rank 0 never called dist.destroy_process_group(): the process group"
    )
    assert rule_fails(rules.check_leaving, [rank_record(), rank_record(calls=[])]) == (
        "rank 1 called dist.destroy_process_group() without dist.barrier() before it: a rank "
        "may leave while another still saves or waits. Let all ranks meet at dist.barrier() "
        "after rank 0's save, then leave the group"
    )
    assert rule_fails(
        rules.check_backend, [rank_record(gpus=1, devices=["cpu", "cuda:0"])] * 2
    ) == (
        "rank 0 joined with gloo but put the model on cuda:0: with fewer GPUs (1) than "
        "processes (2) the ranks would share a GPU. Under gloo keep every rank on the CPU "
        "(device = torch.device('cpu')); cuda:LOCAL_RANK is for nccl, when every process has a "
        "GPU of its own"
    )
    assert rule_fails(rules.check_backend, [rank_record(), rank_record(gpus=2)]) == (
        "rank 1 joined with gloo although every process has a GPU of its own (2 GPUs, 2 "
        "processes): choose the backend from the machine, 'nccl' when "
        "torch.cuda.device_count() >= LOCAL_WORLD_SIZE, else 'gloo', and under nccl put each "
        "rank on cuda:LOCAL_RANK"
    )
    rules.check_backend([])  # no rank: nothing to say

    # the kind that carried the most bytes, summed over its calls, decides the hint
    twice = [collective("all_reduce", 300), collective("all_reduce", 300)]
    said = rule_fails(
        rules.check_own_collectives,
        [rank_record(calls=[*twice, collective("broadcast", 500)])],
        1000,
    )
    assert "averaging them again by hand" in said, said
    objects = [collective("broadcast_object_list", 1000)]
    said = rule_fails(rules.check_own_collectives, [rank_record(calls=objects)], 1000)
    assert "The script sent parameters with dist.broadcast_object_list itself" in said, said
    # a rank that ended by an error, or recorded no end, is left to the other rules; the
    # ranks after it are still read
    ended = {k: v for k, v in rank_record(destroyed=False).items() if k != "ended"}
    no_calls = {k: v for k, v in rank_record().items() if k != "calls"}
    errored = {**rank_record(destroyed=False), "ended": {"how": "error"}}
    rules.check_leaving([ended, errored])
    assert rule_fails(rules.check_leaving, [errored, no_calls]).startswith(
        "rank 1 called dist.destroy_process_group() without dist.barrier() before it"
    )
    # a record without the GPUs it saw counts none; one process with a GPU of its own is nccl's
    unseen = {k: v for k, v in rank_record(devices=["cuda:0"]).items() if k != "gpus"}
    assert "with fewer GPUs (0) than processes (2)" in rule_fails(rules.check_backend, [unseen] * 2)
    assert rule_fails(rules.check_backend, [rank_record(gpus=1)]).startswith(
        "rank 0 joined with gloo although every process has a GPU of its own (1 GPU, 1 process)"
    )


def test_ddp_a_checkpoint_saved_after_the_last_barrier_is_named(tmp_path, monkeypatch):
    def saved_after(out, nproc):  # rank 0 saved when it had passed its one barrier
        return [rank_record(saves=[out], barriers_at_save=1)] + [rank_record()] * (nproc - 1)

    saves_records(monkeypatch, saved_after)
    hint = assert_fails("05.ddp", ddp_variant(tmp_path, "any"), "after its last").hint
    assert hint == (
        "rank 0 saved the checkpoint after its last dist.barrier(): the other ranks passed the "
        "barrier and left while the save was still being written, so the barrier waits for "
        "nothing. Save first (if rank == 0: torch.save(...)), then let all ranks meet at "
        "dist.barrier() and leave the group"
    ), hint

    def saved_before(out, nproc):  # and a barrier at the start too: the last one is after it
        early = rank_record(saves=[out], barriers_at_save=1)
        early["calls"] = early["calls"] * 2
        return [early] + [rank_record()] * (nproc - 1)

    saves_records(monkeypatch, saved_before)
    assert_passes("05.ddp", ddp_variant(tmp_path, "any"))
