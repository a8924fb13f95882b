"""The checker kit (``d2lgpu/checks/_kit.py``): what checkers repeat, written once."""

from __future__ import annotations

import contextlib
import types

import pytest
import torch

from d2lgpu.checks import _kit
from d2lgpu.checks._kit import (
    Deadlock,
    KnownError,
    Tolerance,
    call_answer,
    calls_to,
    close,
    first_close,
    first_hint,
    max_diff,
    mismatch,
    names_both,
    patched,
    run_cases,
)
from d2lgpu.checks._util import CheckFailed

TOL = Tolerance(rtol=1e-4, atol=1e-6)


def test_a_known_error_becomes_its_hint_and_any_other_error_goes_on():
    def answer(words):
        raise RuntimeError(words)

    known = [
        KnownError(ValueError, ("leaf",), "a ValueError's hint"),
        KnownError(RuntimeError, ("leaf Variable", "in-place"), "use torch.no_grad()"),
    ]
    with pytest.raises(CheckFailed, match=r"^use torch.no_grad\(\)$") as caught:
        call_answer(answer, "a leaf Variable that requires grad", known=known)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    with pytest.raises(RuntimeError, match="something else"):
        call_answer(answer, "something else", known=known)
    said = KnownError(RuntimeError, ("boom",), lambda error: f"it said: {error}")
    with pytest.raises(CheckFailed, match="it said: boom!"):
        call_answer(answer, "boom!", known=[said])
    assert call_answer(lambda a, b=0: a + b, 2, b=3, known=known) == 5


def test_a_hint_the_answer_raised_itself_is_never_rewritten():
    def answer():
        raise CheckFailed("in-place: the checker's own hint")

    rule = KnownError(AssertionError, ("in-place",), "another hint")
    with pytest.raises(CheckFailed, match="the checker's own hint"):
        call_answer(answer, known=[rule])


def test_run_cases_runs_every_case_in_order_and_stops_at_the_first_hint():
    seen = []

    def check_case(n, m):
        seen.append((n, m))
        if n == 2:
            raise CheckFailed(f"case {n}")
        return n * m

    assert run_cases([(1, 3), (3, 4)], check_case) == [3, 12]
    with pytest.raises(CheckFailed, match="case 2"):
        run_cases([(1, 1), (2, 1), (5, 1)], check_case)
    assert seen == [(1, 3), (3, 4), (1, 1), (2, 1)]


def test_close_compares_shape_and_values_within_the_named_tolerance():
    want = torch.tensor([1.0, 2.0])
    assert close(want + 5e-7, want, TOL) and not close(want + 1e-3, want, TOL)
    assert not close(want[:1], want, TOL) and not close(None, want, TOL)
    assert not close([1.0, 2.0], want)
    assert close(want + 1e-6, want) and not close(want + 1e-3, want)  # allclose's defaults
    assert str(TOL) == "rtol 0.0001, atol 1e-06"
    assert max_diff(torch.tensor([1.0, 5.0]), torch.tensor([1.5, 2.0])) == 3.0


def test_mismatch_names_the_tensor_the_gap_and_the_tolerance():
    want = torch.zeros(3)
    assert mismatch("the output", want, want, TOL) is None
    said = mismatch("the output", torch.tensor([0.0, 0.25, 0.0]), want, TOL)
    assert said == "the output differs by up to 0.25 (tolerance: rtol 0.0001, atol 1e-06)"
    assert mismatch("x.grad", torch.zeros(2), want, TOL) == "x.grad is (2,), expected shape (3,)"
    assert mismatch("x.grad", None, want, TOL) == "x.grad is NoneType, expected shape (3,)"


def test_first_close_says_which_candidate_a_result_is():
    candidates = [torch.zeros(2), torch.ones(2), torch.ones(2)]
    assert first_close(torch.ones(2), candidates) == 1
    assert first_close(torch.full((2,), 7.0), candidates) is None
    assert first_close(torch.ones(3), candidates) is None


def test_first_hint_raises_the_first_finding_that_holds_and_only_calls_its_hint():
    called = []

    def late():
        called.append(True)
        return "never asked"

    with pytest.raises(CheckFailed, match="^the second$"):
        first_hint([(False, "the first"), (True, "the second"), (True, late)])
    assert not called
    with pytest.raises(CheckFailed, match="^made late$"):
        first_hint([(False, late), (True, lambda: "made late")])
    assert first_hint([(False, "no"), (False, late)]) is None and not called
    assert (
        names_both("a wrong weight", "zeroed gradients") == "a wrong weight; and zeroed gradients"
    )


def test_patched_puts_the_originals_back_however_the_block_ends():
    owner = types.SimpleNamespace(a=1, b=2)
    with patched((owner, "a", 10), (owner, "b", 20)):
        assert (owner.a, owner.b) == (10, 20)
    assert (owner.a, owner.b) == (1, 2)
    with pytest.raises(ZeroDivisionError), patched((owner, "a", 10), (owner, "a", 11)):
        assert owner.a == 11
        1 / 0  # noqa: B018
    assert owner.a == 1  # the same name patched twice: the first original comes back last


def test_calls_to_records_each_call_while_the_original_runs():
    class Thing:
        def twice(self, x):
            return 2 * x

    original = Thing.twice
    with calls_to(Thing, "twice") as results:
        assert Thing().twice(3) == 6 and Thing().twice(4) == 8
    assert results == [6, 8] and Thing.twice is original
    with calls_to(Thing, "twice", note=lambda self, x: x) as args:
        assert Thing().twice(5) == 10
    assert args == [5] and Thing.twice is original


def test_copies_of_records_copies_of_the_named_tensors_only():
    from d2lgpu.checks._kit import copies_of

    a, b = torch.ones(2), torch.zeros(2)
    with copies_of(lambda t: "a" if t is a else None) as copies:
        a.cpu(), a.to("cpu"), a.to(torch.float64), a.tolist(), b.cpu(), a + 1
    assert copies == [("a", ".cpu()"), ("a", ".to()"), ("a", ".tolist()")], copies
    a.cpu()  # after the block: not recorded
    assert len(copies) == 3


def test_runs_of_sees_a_function_however_it_was_reached():
    import sys

    from d2lgpu import pipeline
    from d2lgpu.checks._kit_code import runs_of
    from d2lgpu.pipeline import gpipe_order as imported_before

    alias = pipeline.one_f_one_b_order
    codes = pipeline.one_f_one_b_order.__code__, pipeline.gpipe_order.__code__
    names = set(vars(pipeline))
    with runs_of(pipeline.one_f_one_b_order, pipeline.gpipe_order) as seen:
        assert imported_before(2, 2) == [[("F", 0), ("F", 1), ("B", 0), ("B", 1)]] * 2
        alias(2, 3)
        pipeline.micro_batches(torch.arange(4), 2)  # not watched
        assert sys.getprofile() is None  # no profiler: it slows every call (and see below)
    assert seen == ["gpipe_order", "one_f_one_b_order"]
    assert (pipeline.one_f_one_b_order.__code__, pipeline.gpipe_order.__code__) == codes
    assert set(vars(pipeline)) == names  # nothing left in the module
    pipeline.gpipe_order(2, 2)  # after the block: not recorded
    assert seen == ["gpipe_order", "one_f_one_b_order"]


def test_runs_of_puts_the_code_back_after_an_error_and_refuses_closures():
    from d2lgpu import pipeline
    from d2lgpu.checks._kit_code import runs_of

    code = pipeline.gpipe_order.__code__
    with pytest.raises(ZeroDivisionError), runs_of(pipeline.gpipe_order) as seen:
        pipeline.gpipe_order(1, 1)
        raise ZeroDivisionError("in the block")
    assert seen == ["gpipe_order"] and pipeline.gpipe_order.__code__ is code
    x = 1
    with pytest.raises(TypeError, match="closure"), runs_of(lambda: x):
        pass
    with pytest.raises(TypeError, match="plain Python functions"), runs_of(len):
        pass


def test_no_module_of_the_package_installs_a_profiler_or_a_tracer():
    # The time limit stops an answer with SIGALRM; on CPython 3.11 a profiler in force when
    # its handler ran made the handler spin for ever (CI ran out of time). Checks watch
    # calls by swapping code (runs_of) or by torch's dispatch modes, never so.
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "d2lgpu"
    pattern = re.compile(r"\b(?:sys|threading)\.set(?:profile|trace)(?:_all_threads)?\(")
    found = [
        f"{path.relative_to(package)}:{n}"
        for path in sorted(package.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line.split("#")[0]) and "``" not in line
    ]
    assert not found, f"a profiler or tracer installed in {found}"


def test_runs_of_installs_no_profiler_under_a_time_limit():
    # On CPython 3.11 a profiler installed while the time limit's SIGALRM handler could run
    # made the handler spin for ever on its first line (two checks hung that way under
    # runs_of's former profiler): the watch must work without one.
    import sys

    from d2lgpu import pipeline
    from d2lgpu.checks._guard import time_limit
    from d2lgpu.checks._kit_code import runs_of

    profilers = []

    def answer():
        profilers.append(sys.getprofile())
        return [pipeline.gpipe_order(2, m) for m in range(1, 200)]

    with time_limit(30) as limit, runs_of(pipeline.gpipe_order) as seen:
        assert len(answer()) == 199
    assert profilers == [None]
    assert seen == ["gpipe_order"] * 199 and limit["raised"] == 0


def test_kept_from_earlier_counts_the_tensors_that_outlive_their_step():
    import weakref

    from d2lgpu.checks._kit import kept_from_earlier

    reused, kept, steps = torch.zeros(2), [], []
    for step in range(3):
        flat = torch.ones(3)  # a new buffer each step
        steps.append([weakref.ref(flat), weakref.ref(reused)])  # one buffer used every step
        if step == 0:
            kept.append(flat)  # step 0's kept past its step; step 1's let go
    last = flat  # noqa: F841 (the last step's, alive as the job ends)
    assert kept_from_earlier(steps) == 1
    kept.clear()
    assert kept_from_earlier(steps) == 0
    assert kept_from_earlier([]) == 0


def test_a_deadlock_is_ranks_whose_logged_collectives_differ_where_all_reached_and_stay_so(
    tmp_path,
):
    def log(rank, *calls):
        (tmp_path / f"rank{rank}").write_text("".join(c + "\n" for c in calls))

    stuck = Deadlock(tmp_path, 2, quiet_s=0.0)
    assert not stuck()  # nothing written yet: no rank has started a collective
    log(0, "all_reduce [4]", "broadcast [4] from rank 0")
    log(1, "all_reduce [4]")
    assert not stuck() and not stuck()  # rank 1 is only behind: the same calls so far
    log(1, "all_reduce [4]", "broadcast [4] from rank 1")  # the root differs
    assert not stuck(), "the logs just changed: the ranks may still be moving"
    assert stuck()
    log(1, "all_reduce [4]", "broadcast [4] from rank 1", "barrier []")
    assert not stuck(), "a rank started another call: not quiet"
    slow = Deadlock(tmp_path, 2, quiet_s=60.0)
    assert not slow() and not slow(), "they differ, but have not been quiet for quiet_s"
    assert not Deadlock(tmp_path, 3, quiet_s=0.0)(), "rank 2 has no log: nothing all reached"


def test_each_part_of_a_tolerance_is_used_and_judges_mismatch_and_first_close():
    want = torch.tensor([1.0, 0.0])
    relative, absolute = Tolerance(rtol=0.1, atol=0.0), Tolerance(rtol=0.0, atol=0.1)
    assert close(torch.tensor([1.05, 0.0]), want, relative)  # 5%: outside allclose's defaults
    assert close(torch.tensor([1.0, 0.05]), want, absolute)
    assert not close(torch.tensor([1.2, 0.0]), want, relative)
    got = torch.tensor([1.05, 0.0])
    assert mismatch("w", got, want, relative) is None
    assert first_close(got, [torch.tensor([2.0, 0.0]), want], relative) == 1
    assert first_close(got, [want]) is None  # no tolerance given: allclose's defaults
    assert mismatch("w", [1.05, 0.0], want, relative) == "w is list, expected shape (2,)"


def test_to_names_a_device_by_position_or_by_keyword_not_by_dtype():
    from d2lgpu.checks._kit import _names_a_device

    assert _names_a_device(("cpu",), {}) and _names_a_device((), {"device": "cpu"})
    assert _names_a_device((), {"device": torch.device("cpu")})
    assert not _names_a_device((torch.float64,), {})
    assert not _names_a_device((), {"dtype": torch.float64})


def test_kept_from_earlier_counts_what_earlier_steps_left_alive_beside_the_last_ones():
    import weakref

    from d2lgpu.checks._kit import kept_from_earlier

    first, second, last, gone = (torch.ones(1) for _ in range(4))
    steps = [[weakref.ref(first)], [weakref.ref(second), weakref.ref(gone)], [weakref.ref(last)]]
    del gone
    assert kept_from_earlier(steps) == 2  # first and second; not gone, nor the last step's
    steps[-1].append(weakref.ref(second))  # also the last step's own: not kept from earlier
    assert kept_from_earlier(steps) == 1
    assert kept_from_earlier([]) == 0


def test_a_deadlock_is_told_after_quiet_s_exactly(tmp_path, monkeypatch):
    from d2lgpu.checks import _kit

    now = [100.0]
    monkeypatch.setattr(_kit.time, "monotonic", lambda: now[0])
    assert Deadlock(tmp_path, 2).quiet_s == 2.0  # the default the docs name
    (tmp_path / "rank0").write_text("broadcast [4] from rank 0\n")
    (tmp_path / "rank1").write_text("broadcast [4] from rank 1\n")
    stuck = Deadlock(tmp_path, 2, quiet_s=2.0)
    assert not stuck()  # the logs changed: the clock starts
    now[0] += 1.999
    assert not stuck()
    now[0] = 102.0
    assert stuck()


_HELD_GLOBALLY: list = []


def test_made_since_finds_what_was_made_and_kept_wherever_it_is():
    old = torch.ones(300)
    param = torch.nn.Parameter(torch.zeros(4))
    before = _kit.tensors_alive()
    assert before[id(old)]() is old

    class Holder:
        pass

    holder = Holder()
    holder.sparse = torch.sparse_coo_tensor([[0]], [1.0], (9,))  # no storage: passed over
    holder.kept = torch.full((5,), 2.0)  # an attribute
    _HELD_GLOBALLY.append(torch.full((6,), 3.0))  # a module's global
    reader = (lambda kept: lambda: kept)(torch.full((7,), 4.0))  # a closure
    param.extra = torch.full((8,), 5.0)  # an attribute set on a tensor
    view = param.detach()[:2]  # shares the parameter's storage: left out with it
    made = _kit.made_since(before, leave_out=[param])
    try:
        sizes = sorted(t.numel() for t in made)
        assert sizes == [5, 6, 7, 8], sizes
        assert all(t is not old and t is not view for t in made)
        made.clear()
        del holder.kept, param.extra, reader
        assert sorted(t.numel() for t in _kit.made_since(before, [param])) == [6]
    finally:
        _HELD_GLOBALLY.clear()


def test_a_time_limit_says_how_long_it_allowed_and_how_long_is_left():
    from d2lgpu.checks._guard import AnswerTimedOut, remaining_s, time_limit

    assert str(AnswerTimedOut(2.5)) == "stopped after 2.5 s" and AnswerTimedOut(2.5).seconds == 2.5
    assert str(AnswerTimedOut()) == "stopped" and AnswerTimedOut().seconds == 0.0
    assert remaining_s() is None
    with time_limit(30):
        assert 29 < remaining_s() <= 30
        with time_limit(5):  # the innermost limit in force
            assert 4 < remaining_s() <= 5
        assert 29 < remaining_s() <= 30
    assert remaining_s() is None


def test_a_module_called_past_its_hooks_is_counted_and_one_called_through_them_is_not():
    from torch import nn

    from d2lgpu.checks._kit_calls import CallCounted

    class Doubler(CallCounted):
        def forward(self, h):
            self.counted()
            return 2 * h

    module, x = Doubler(), torch.ones(2)
    assert torch.equal(module(x), 2 * x) and module.direct == 0
    module.forward(x)
    module.forward(x)
    assert module.direct == 2
    nn.Sequential(module)(x)  # through __call__ again: the mark was cleared, then set anew
    assert module.direct == 2


def test_autocasts_asked_records_regions_made_enabled_or_entered_enabled_and_puts_back():
    from d2lgpu.checks._kit_calls import autocasts_asked

    before = torch.autocast("cpu", dtype=torch.float16)  # made outside: a decorator's
    off = torch.autocast("cpu", enabled=False)
    originals = (torch.autocast.__init__, torch.autocast.__enter__)
    with autocasts_asked() as asked:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            pass
        with torch.autocast(device_type="cpu"):  # its dtype: the device's default
            pass
        with torch.autocast("cpu", dtype=torch.float16, enabled=False):
            pass
        with before:
            pass
        with off:
            pass
    assert asked == [
        ("cpu", torch.bfloat16),
        ("cpu", torch.get_autocast_dtype("cpu")),
        ("cpu", torch.float16),
    ]
    assert (torch.autocast.__init__, torch.autocast.__enter__) == originals  # put back
    with torch.autocast("cpu"):  # after the block: nothing recorded
        pass
    assert len(asked) == 3
    x = torch.ones(2, 2)
    with autocasts_asked() as asked:
        made = torch.autocast("cpu", dtype=torch.float16)  # made here, entered twice: once
        for _ in range(2):
            with made:
                assert (x @ x).dtype == torch.float16  # the region runs as it was asked
    assert asked == [("cpu", torch.float16)]


def test_call_counted_counts_a_first_forward_called_past_its_hooks():
    from d2lgpu.checks._kit_calls import CallCounted

    class Block(CallCounted):
        def forward(self, h):
            self.counted()
            return h

    block = Block()
    block.forward(1)  # the very first call, past __call__: counted
    block(1)
    block.forward(1)
    assert block.direct == 2


def test_a_reseed_left_in_place_is_named_however_spelt_and_one_undone_is_not():
    from d2lgpu.checks._kit_seeds import reseeds_named
    from d2lgpu.checks._util import RuleBroken

    originals = torch.manual_seed, torch.random.manual_seed, torch.seed, torch.cuda.manual_seed
    state = torch.get_rng_state()
    for reseed, name in ((lambda: torch.manual_seed(0), "torch.manual_seed"),
                         (lambda: torch.random.manual_seed(1), "torch.manual_seed"),
                         (lambda: torch.seed(), "torch.seed"),
                         (lambda: torch.random.seed(), "torch.seed")):  # fmt: skip
        with pytest.raises(CheckFailed) as raised, reseeds_named("your step"):
            reseed()
        assert raised.value.hint == (
            f"your step called {name}() and left torch's global random generator reseeded: "
            "the caller's own draws share it (its data order, dropout masks, initialisations), "
            "so they would restart from that seed at every call. Leave the global generator as "
            "the caller had it; random numbers of your own come from a torch.Generator you "
            "seed (torch.Generator().manual_seed(0)), or from inside torch.random.fork_rng(), "
            "which puts the state back"
        )
        torch.set_rng_state(state)
    with pytest.raises(RuleBroken, match=r"^your ShardedOptimizer called torch.manual_seed\("):
        with reseeds_named("your ShardedOptimizer", RuleBroken):
            torch.manual_seed(0)
    torch.set_rng_state(state)
    # draws, a generator of one's own, a reseed undone (fork_rng, or the state set back) pass
    with reseeds_named("your step"):
        torch.randn(3)
        torch.randn(3, generator=torch.Generator().manual_seed(0))
        with torch.random.fork_rng():
            torch.manual_seed(0)
            torch.randn(3)
        saved = torch.get_rng_state()
        torch.manual_seed(5)
        torch.set_rng_state(saved)
    # a state from another generator, or read in an earlier call, set in this one; and a
    # reseed through the generator's own method
    earlier = torch.get_rng_state()
    for reseed, words in (
        (lambda: torch.set_rng_state(torch.Generator().manual_seed(0).get_state()),
         "torch.set_rng_state() with a state it had not read from that generator"),
        (lambda: torch.random.set_rng_state(earlier),
         "torch.set_rng_state() with a state it had not read from that generator"),
        (lambda: torch.default_generator.manual_seed(12345), "torch.default_generator.manual_seed()"),
    ):  # fmt: skip
        torch.randn(2)
        with pytest.raises(CheckFailed) as raised, reseeds_named("your step"):
            reseed()
        assert raised.value.hint.startswith(f"your step called {words} and left torch's global")
        torch.set_rng_state(state)
    # the generator reseeded to the seed the caller's had: the same words; a block that
    # draws leaves the caller's seed (and its draws) as they were
    torch.manual_seed(7)
    with pytest.raises(CheckFailed, match=r"^your step called torch.default_generator.manual_"):
        with reseeds_named("your step"):
            torch.default_generator.manual_seed(7)
    torch.manual_seed(7)
    with reseeds_named("your step"):
        drawn = torch.rand(4)
    assert torch.initial_seed() == 7 and torch.equal(torch.manual_seed(7) and torch.rand(4), drawn)
    with pytest.raises(CheckFailed, match=r"^your step called torch.cuda.manual_seed_all\(\)"):
        with reseeds_named("your step"):
            torch.cuda.manual_seed_all(0)
    with reseeds_named("your step"):  # a state set back by keyword
        saved = torch.random.get_rng_state()
        torch.manual_seed(3)
        torch.set_rng_state(new_state=saved)
    # an error of the block's own goes on as it was, reseeded or not
    with pytest.raises(ValueError, match="its own"), reseeds_named("your step"):
        torch.manual_seed(0)
        raise ValueError("its own")
    torch.set_rng_state(state)
    assert (torch.manual_seed, torch.random.manual_seed, torch.seed, torch.cuda.manual_seed) == (
        originals
    )


def test_nested_watches_keep_their_marks_whatever_seed_the_caller_had():
    """A watch's mark is no seed code writes, at any depth: where an outer watch's mark were
    a rank (0 or 1), a reseed to that rank undone by fork_rng in an inner watch would put the
    outer mark back over the inner one, and a reseed undone would be named."""
    from d2lgpu.checks._kit_process import defaults_kept
    from d2lgpu.checks._kit_seeds import _mixed, reseeds_named

    # splitmix64's published first outputs from a state of 0: the mix is splitmix64's own
    assert [_mixed(0, depth) for depth in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F
    ]  # fmt: skip
    marks = {seed: [_mixed(seed, depth) for depth in range(4)] for seed in range(256)}
    for seed, row in marks.items():
        assert len({seed, *row}) == 5 and min(row) >= 1 << 32, (seed, row)
    state = torch.get_rng_state()
    try:
        for seed in (0, 1, 2, 3, 42, torch.initial_seed()):
            for rank in range(4):
                torch.manual_seed(seed)
                with defaults_kept("your answer"), defaults_kept("in a rank, your code"):
                    with reseeds_named("your ParallelMLP"):
                        with torch.random.fork_rng():
                            torch.manual_seed(rank)
                            torch.rand(2)
                assert torch.initial_seed() == seed, (seed, rank)
    finally:
        torch.set_rng_state(state)


def test_only_the_learners_own_files_are_the_answers_and_a_librarys_thread_is_not():
    """A learner's file or cell is the answer's; a test file or conftest.py (whose code
    stands in for torch's in a test), the course's and a library's are not. A reseed from a
    thread that runs only library code (a Thread whose target is torch.manual_seed, undone
    by the caller after) is the answer's no more than the checker's own."""
    import threading
    from pathlib import Path

    import d2lgpu
    from d2lgpu.checks._kit_process import defaults_kept
    from d2lgpu.checks._kit_seeds import answers

    home = str(Path.home())
    assert answers(f"{home}/work/answer.py") and answers("<ipython-input-3-ab>")
    for name in ("test_answer.py", "conftest.py", "conftest_local.py"):
        assert not answers(f"{home}/work/{name}"), name
    assert not answers(torch.__file__) and not answers(d2lgpu.__file__)
    state = torch.get_rng_state()
    try:
        torch.manual_seed(4)
        with defaults_kept("your answer"):
            thread = threading.Thread(target=torch.manual_seed, args=(9,))
            thread.start()
            thread.join()
            torch.manual_seed(seed=4)  # the checker's own seed again, as it had it
        assert torch.initial_seed() == 4
    finally:
        torch.set_rng_state(state)


def test_the_seed_watches_work_under_fake_tensor_mode():
    """Chapter 11's checker measures a plan's activations with checkpointed blocks on fake
    tensors (FakeTensorMode), where checkpoint reads and sets the generator's state: the
    watches' own work on the real state runs outside that mode, and nothing is named."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.utils.checkpoint import checkpoint

    from d2lgpu.checks._kit_process import defaults_kept
    from d2lgpu.checks._kit_seeds import reseeds_named

    state = torch.get_rng_state()
    try:
        torch.manual_seed(3)
        with defaults_kept("your answer"), reseeds_named("your plan"), FakeTensorMode():
            layer = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))
            x = torch.ones(2, 4, requires_grad=True)
            checkpoint(layer, x, use_reentrant=False).sum().backward()
            with torch.random.fork_rng():
                torch.manual_seed(1)
            assert x.grad is not None and x.grad.shape == (2, 4)
        assert torch.initial_seed() == 3
    finally:
        torch.set_rng_state(state)


def test_the_seed_watch_compares_states_and_lists_of_states_and_notes_each_call():
    from d2lgpu.checks._kit_seeds import _noted, _same

    a = torch.get_rng_state()
    b, u = a.clone(), torch.zeros(1, 3)
    b[0] ^= 1
    assert _same(a, a.clone()) and not _same(a, b) and not _same(a, a[:-1])
    assert _same([a, a], (a.clone(), a.clone())) and not _same([a], [a, a])
    assert not _same([a, b], [a, a]) and not _same(a, [a]) and not _same([u[0]], u)
    assert not _same(None, None)
    # the CUDA generators' states, a list, set back by keyword (new_states): what was noted
    # since its read is undone; or set from elsewhere: a reseed
    before = [("draw", "torch.randn() without generator=")]
    events, read, calls = [*before, ("seed", "torch.manual_seed()")], [([a], before)], []
    record = lambda *args, **kwargs: calls.append((args, kwargs))  # noqa: E731
    _noted(events, read, None, "torch.cuda.set_rng_state_all", record, new_states=[a.clone()])
    assert events == before and events is not before
    _noted(events, read, None, "torch.cuda.set_rng_state_all", record, new_states=[b])
    assert events == [
        *before,
        ("seed", "torch.cuda.set_rng_state_all() with a state it had not read from that generator"),
    ]
    assert [sorted(k) for _, k in calls] == [["new_states"], ["new_states"]]
    assert _noted(events, read, None, "torch.get_rng_state", lambda: b) is b
    assert read[-1][0] is b and read[-1][1] == events and read[-1][1] is not events


def test_each_default_left_changed_gets_the_remedy_that_fits_it():
    """A default device or dtype: make tensors with device= or dtype=, or a with-block; grad
    mode: torch.no_grad(); the others: read, change and set back in try/finally. The whole
    hint, for each, and the default put back."""
    from d2lgpu.checks._kit_process import defaults_kept

    start = "your answer leaves a process-wide default of torch changed ("
    middle = (
        "): every tensor made (or product computed) afterwards anywhere in the program, the "
        "caller's too, follows it. "
    )
    with_block = (
        "Keep the change inside your function: device= or dtype= on the tensors you make, or a "
        "with-block that undoes it when it ends (with torch.device(device):)"
    )
    for change, words, remedy in (
        (lambda: torch.set_default_device("meta"), "torch.set_default_device('meta')", with_block),
        (lambda: torch.set_default_dtype(torch.float64), "torch.set_default_dtype(torch.float64)",
         with_block),
        (lambda: torch.set_grad_enabled(False), "torch.set_grad_enabled(False)",
         "Keep the change inside your function: a with-block that undoes it when it ends "
         "(with torch.no_grad():)"),
        (lambda: torch.use_deterministic_algorithms(True),
         "torch.use_deterministic_algorithms(True)",
         "Read the setting before you change it, and set it back before you return "
         "(try/finally), so that the caller's stays as it was"),
    ):  # fmt: skip
        with pytest.raises(CheckFailed) as raised, defaults_kept("your answer"):
            change()
        assert raised.value.hint == f"{start}{words}{middle}{remedy}", raised.value.hint
    assert torch.get_default_device() == torch.device("cpu")
    assert torch.get_default_dtype() == torch.float32 and torch.is_grad_enabled()
    assert not torch.are_deterministic_algorithms_enabled()


def test_a_default_device_set_under_a_checkers_own_mode_is_named_as_such_and_put_back():
    """torch puts a default device's mode at the bottom of the stack, under a mode the checker
    entered first: it is still named as the default device, and the checker's mode stays."""
    from torch.overrides import TorchFunctionMode, _get_current_function_mode_stack

    from d2lgpu.checks._kit_process import left_changed, settings

    class Watching(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with (watching := Watching()):
        before = settings()
        torch.set_default_device("cpu")  # the default, so only the mode tells
        assert left_changed(before) == ["torch.set_default_device('cpu')"]
        assert _get_current_function_mode_stack() == [watching]
    assert _get_current_function_mode_stack() == []


def test_process_wide_settings_left_changed_are_named_as_code_and_put_back():
    import os
    import warnings

    from d2lgpu.checks import _kit_process
    from d2lgpu.checks._kit_process import left_changed, settings

    threads = torch.get_num_threads()
    before = settings()
    torch.set_num_threads(threads + 1)
    torch.backends.cudnn.benchmark = not torch.backends.cudnn.benchmark
    torch.set_printoptions(precision=9)
    torch.set_flush_denormal(True)
    warnings.filterwarnings("ignore")
    os.environ["D2LGPU_TEST_LEFT"] = "1"  # from a test file: the harness's, not an answer's
    torch.set_default_device("cpu")  # a DeviceContext mode left on the stack
    changed = left_changed(before)
    os.environ.pop("D2LGPU_TEST_LEFT")
    assert changed == [
        f"torch.set_num_threads({threads + 1})",
        f"torch.backends.cudnn.benchmark = {torch.backends.cudnn.benchmark is False}",
        "torch.set_printoptions(precision=9)",
        "torch.set_flush_denormal(True)",
        "warnings.filterwarnings('ignore', category=Warning)",
        "torch.set_default_device('cpu')",
    ]
    assert left_changed(settings()) == []  # each was put back
    assert torch.get_num_threads() == threads
    # an answer's own write to os.environ is named and undone; torch's own is not named
    before = settings()
    code = compile("import os\nos.environ['D2LGPU_TEST_LEFT'] = 'on'\n", "answer.py", "exec")
    exec(code, {})  # noqa: S102 - a learner's line, as a file outside the course
    os.environ["D2LGPU_TEST_OTHER"] = "x"
    assert left_changed(before) == ["os.environ['D2LGPU_TEST_LEFT'] = 'on'"]
    assert "D2LGPU_TEST_LEFT" not in os.environ
    os.environ.pop("D2LGPU_TEST_OTHER")
    # a variable the answer deleted is named as deleted, and put back with its value
    os.environ["D2LGPU_TEST_KEPT"] = "kept"
    before = settings()
    exec(compile("import os\ndel os.environ['D2LGPU_TEST_KEPT']\n", "answer.py", "exec"), {})  # noqa: S102
    assert left_changed(before) == ["del os.environ['D2LGPU_TEST_KEPT']"]
    assert os.environ.pop("D2LGPU_TEST_KEPT") == "kept"
    # two print options changed are named in one call, as code that runs
    before = settings()
    torch.set_printoptions(precision=3, sci_mode=True)
    assert left_changed(before) == ["torch.set_printoptions(precision=3, sci_mode=True)"]
    assert left_changed(settings()) == []
    # an inference mode left entered is named and switched off
    before = settings()
    left = torch.inference_mode()
    left.__enter__()
    assert left_changed(before) == ["torch.inference_mode() entered and never exited"]
    assert not torch.is_inference_mode_enabled() and _kit_process._UNDONE
    # an autocast entered and never exited is named and switched off
    before = settings()
    torch.autocast("cpu", dtype=torch.float16).__enter__()
    assert left_changed(before) == [
        "torch.autocast('cpu', dtype=torch.float16) entered and never exited"
    ]
    assert not torch.is_autocast_enabled("cpu")
    assert torch.get_autocast_dtype("cpu") == before["autocast"][0][1]
    assert _kit_process._autocast_nesting() == before["nesting"]  # its cache cleared too


def test_the_interpreter_settings_left_changed_are_named_and_put_back():
    # A timing answer that turns the garbage collector off (as timeit does) and never turns it
    # back on leaves every later line of the program without it; so do its thresholds and
    # the thread switch interval. Each is named as the code that did it, and put back.
    import gc
    import sys

    from d2lgpu.checks._kit_process import defaults_kept, left_changed, settings

    on, threshold, switch = gc.isenabled(), gc.get_threshold(), sys.getswitchinterval()
    assert on, "the test starts with the collector on, as every program does"
    before = settings()
    gc.disable()
    gc.set_threshold(threshold[0] + 7, *threshold[1:])
    sys.setswitchinterval(switch * 2)
    assert left_changed(before) == [
        "gc.disable()",
        f"gc.set_threshold({', '.join(map(str, (threshold[0] + 7, *threshold[1:])))})",
        f"sys.setswitchinterval({switch * 2})",
    ]
    assert (gc.isenabled(), gc.get_threshold(), sys.getswitchinterval()) == (on, threshold, switch)
    assert left_changed(settings()) == []
    # turned on where the caller had it off: named as gc.enable(), and switched off again
    gc.disable()
    try:
        before = settings()
        gc.enable()
        assert left_changed(before) == ["gc.enable()"]
        assert not gc.isenabled()
    finally:
        gc.enable()
    # through the kit's watch: a learner's gc.disable() fails, with the setting named
    with pytest.raises(CheckFailed, match=r"process-wide setting changed \(gc\.disable\(\)\)"):
        with defaults_kept("your answer"):
            gc.disable()
    assert gc.isenabled()
    # turned off inside the block and back on before it ends: nothing to name
    with defaults_kept("your answer"):
        gc.disable()
        gc.enable()


def test_a_thread_count_an_answer_sets_is_named_even_where_it_equals_the_callers():
    from d2lgpu.checks._kit_process import defaults_kept

    threads = torch.get_num_threads()
    space: dict = {}
    code = compile(
        "import torch\n"
        "def fixed(n):\n    torch.set_num_threads(n)\n"
        "def undone(n):\n    old = torch.get_num_threads()\n    torch.set_num_threads(n)\n"
        "    torch.set_num_threads(old)\n"
        "def kept(n):\n    torch.set_num_threads(torch.get_num_threads())\n",
        "answer.py",
        "exec",
    )
    exec(code, space)  # noqa: S102 - a learner's functions, as a file outside the course
    try:
        # the count the caller had, set as a number of its own: named, its words the count
        with pytest.raises(CheckFailed) as raised, defaults_kept("your answer"):
            space["fixed"](threads)
        assert raised.value.hint.startswith(
            f"your answer leaves a process-wide setting changed (torch.set_num_threads({threads}))"
        )
        # another count: named once, by what it is now, and put back
        with pytest.raises(CheckFailed, match=r"\(torch.set_num_threads\(\d+\)\): every"):
            with defaults_kept("your answer"):
                space["fixed"](threads + 1)
        assert torch.get_num_threads() == threads
        # a count read and put back, or set to what was read; a test file's own set: pass
        with defaults_kept("your answer"):
            space["undone"](threads + 1)
            space["kept"](0)
            torch.set_num_threads(threads)
        # nested watches (a checker's inside check()'s): the inner one names it
        with pytest.raises(CheckFailed, match=r"^your function leaves"):
            with defaults_kept("your answer"), defaults_kept("your function"):
                space["fixed"](threads)
        assert (torch.get_num_threads, torch.set_num_threads) == (
            torch._C.get_num_threads,
            torch._C.set_num_threads,
        )
    finally:
        torch.set_num_threads(threads)


def test_torchs_functions_replaced_by_an_answers_are_named_and_a_tests_are_not():
    from d2lgpu.checks._kit_process import replaced, replaced_by

    code = compile("def mine(x, *a, **k):\n    return x\n", "answer.py", "exec")
    space: dict = {}
    exec(code, space)  # noqa: S102 - a learner's function, as a file outside the course
    original = torch.linalg.matrix_norm
    torch.linalg.matrix_norm = space["mine"]
    try:
        assert replaced_by() == ["torch.linalg.matrix_norm (mine)"]
        assert [(o, n) for o, n, _ in replaced()] == [(torch.linalg, "matrix_norm")]
    finally:
        torch.linalg.matrix_norm = original
    torch.linalg.matrix_norm = lambda x: x  # a test file's own: the harness's
    try:
        assert replaced_by() == []
    finally:
        torch.linalg.matrix_norm = original


def test_the_answers_own_reseeds_and_draws_are_named_and_the_checkers_are_not():
    """defaults_kept (every check's watch) names what the answer's own lines do to torch's
    global generator: a reseed, or a draw without generator=, left in place. The checker's
    own seeds and draws in the same block, a fork_rng the answer undoes, and draws made by
    torch's own code for the answer (a dropout layer) are not named."""
    from d2lgpu._aliases import answer_graded
    from d2lgpu.checks._kit_process import defaults_kept
    from d2lgpu.checks._kit_seeds import reseeds_named

    space: dict = {}
    code = compile(
        "import torch\n"
        "from torch import randn as my_randn\n"
        "def reseed():\n    torch.manual_seed(3)\n"
        "def own_method(seed):\n    torch.default_generator.manual_seed(seed)\n"
        "def draw():\n    return torch.randn(2)\n"
        "def draw_default():\n    return torch.randn(2, generator=torch.default_generator)\n"
        "def draw_by_alias():\n    return my_randn(2)\n"
        "def perm():\n    return torch.randperm(4)\n"
        "def normal_():\n    return torch.empty(3).normal_()\n"
        "def own(g):\n    return torch.randn(2, generator=g), torch.empty(2).uniform_(generator=g)\n"
        "def forked():\n    with torch.random.fork_rng():\n        torch.manual_seed(0)\n"
        "        return torch.rand(2)\n"
        "def draw_then_fork():\n    torch.randn(2)\n    return forked()\n"
        "def reseed_then_fork():\n    torch.manual_seed(3)\n    return forked()\n"
        "def dropout(x):\n    return torch.nn.Dropout(0.5)(x)\n"
        "def call(f, *args):\n    return f(*args)\n",
        "answer.py",
        "exec",
    )
    exec(code, space)  # noqa: S102 - a learner's functions, as a file outside the course
    state = torch.get_rng_state()
    try:
        for name, words in (("reseed", "called torch.manual_seed()"),
                            ("draw", "drew random numbers from torch's global random generator "
                                     "(torch.randn() without generator=)"),
                            ("draw_default", "drew random numbers from torch's global random "
                                             "generator (torch.randn() with "
                                             "generator=torch.default_generator)"),
                            ("draw_by_alias", "drew random numbers from torch's global random "
                                              "generator (torch.randn() without generator=)"),
                            ("draw_then_fork", "drew random numbers from torch's global "
                                               "random generator (torch.randn() without "
                                               "generator=)"),
                            ("reseed_then_fork", "called torch.manual_seed()"),
                            ("perm", "drew random numbers from torch's global random generator "
                                     "(torch.randperm() without generator=)"),
                            ("normal_", "drew random numbers from torch's global random "
                                        "generator (Tensor.normal_() without generator=)")):  # fmt: skip
            graded = answer_graded(space[name])  # as check() grades it: its aliases too
            with pytest.raises(CheckFailed) as raised, graded, defaults_kept("your answer"):
                torch.manual_seed(11)  # the checker's own seed and draw, before and after
                torch.rand(2)
                space[name]()
                torch.manual_seed(12)
            assert raised.value.hint.startswith(f"your answer {words}"), raised.value.hint
            if name == "draw":  # the advice, word for word
                assert raised.value.hint.endswith(
                    "without generator=): the caller's own draws share it (its data order, "
                    "dropout masks, initialisations), so every call moves them on. Draw from a "
                    "torch.Generator of your own (g = torch.Generator().manual_seed(0); "
                    "torch.randn(..., generator=g)), or inside torch.random.fork_rng(), which "
                    "puts the state back"
                )
        # the caller's own seed, set again through the generator's own method, between the
        # checker's seeds: named too, and in nested watches (a checker's inside check()'s)
        for nested in (False, True):
            torch.manual_seed(5)
            inner = reseeds_named("your step") if nested else contextlib.nullcontext()
            with pytest.raises(CheckFailed, match=r"called torch.default_generator.manual_seed"):
                with defaults_kept("your answer"):
                    torch.manual_seed(6)
                    with inner:  # a checker's own watch, around the answer's call only
                        space["own_method"](5)
                    torch.manual_seed(7)
        # a generator of the answer's own, a fork_rng, torch's dropout, the checker's seeds
        g = torch.Generator().manual_seed(0)
        with defaults_kept("your answer"):
            torch.manual_seed(1)
            space["own"](g)
            space["forked"]()
            space["call"](space["dropout"], torch.ones(8))
            # torch's functions keep their names and words while watched (help(torch.randn))
            assert (torch.randn.__name__, torch.Tensor.normal_.__name__) == ("randn", "normal_")
            assert torch.randn.__doc__ == torch._C._VariableFunctions.randn.__doc__
            torch.manual_seed(2)
            torch.rand(3)
        # torch's own functions are back after each watch
        assert torch.randn is torch._C._VariableFunctions.randn
        assert torch.Tensor.normal_ is torch._C.TensorBase.normal_
    finally:
        torch.set_rng_state(state)


def test_a_watched_step_runs_a_closure_before_it_reads_and_returns_the_closures_loss():
    from d2lgpu.checks._kit_calls import closure_first

    w = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w], lr=0.5)
    seen = []

    def closure():
        opt.zero_grad()
        loss = (w * 3).sum()
        loss.backward()
        return loss

    opt.step = closure_first(opt.step, lambda: seen.append((w.grad.clone(), w.detach().clone())))
    with torch.no_grad():  # the closure still builds its graph: SGD.step's enable_grad
        loss = opt.step(closure)
    assert loss.item() == 6 and torch.equal(seen[0][0], torch.full((2,), 3.0))
    assert torch.equal(seen[0][1], torch.ones(2))  # read before the step
    assert torch.equal(w.detach(), torch.full((2,), -0.5))  # then the plain step
    assert opt.step() is None and len(seen) == 2  # no closure: read, step, nothing returned
    with pytest.raises(TypeError):
        opt.step(closure, 1)  # SGD.step's signature


def test_pythons_and_numpys_global_generators_reseeded_are_named_and_put_back_are_not():
    import random

    from d2lgpu.checks._kit_seeds import reseeds_named
    from d2lgpu.checks._util import RuleBroken

    original, state = random.seed, random.getstate()
    with pytest.raises(RuleBroken) as raised:
        with reseeds_named("your ShardedOptimizer", RuleBroken):
            random.seed(0)
            random.shuffle(list(range(8)))
    assert str(raised.value) == (
        "your ShardedOptimizer called random.seed() and left Python's global random generator "
        "reseeded: the caller's own draws from it (its data order, say) would restart from "
        "that seed at every call, and every other module that draws from it too. Leave it as "
        "the caller had it: draw from a generator of your own (rng = random.Random(0); "
        "rng.shuffle(order)), or put its state back (getstate() before, setstate() after)"
    )
    random.setstate(state)
    with reseeds_named("your step"):  # a generator of one's own, a state put back, draws
        random.Random(0).shuffle(list(range(8)))
        saved = random.getstate()
        random.seed(3)
        random.setstate(saved)
        random.random()
    # a seed by keyword seeds as asked; the module's functions keep their names when watched
    with pytest.raises(RuleBroken, match=r"^your step called random.seed\(\) and left Python"):
        with reseeds_named("your step", RuleBroken):
            assert (random.seed.__name__, random.setstate.__name__) == ("seed", "setstate")
            random.seed(a=3)
            drawn = random.random()
    assert drawn == random.Random(3).random()
    with reseeds_named("your step"):  # put back by keyword
        saved = random.getstate()
        random.seed(a=4)
        random.setstate(state=saved)
    random.setstate(state)
    # nested watches: each finds the module's own seed, and puts it back
    with pytest.raises(
        CheckFailed, match=r"^your ParallelMLP called random.seed\(\) and left Python"
    ):
        with reseeds_named("your step"), reseeds_named("your ParallelMLP"):
            random.seed(1)
    assert random.seed is original
    random.setstate(state)
    np = pytest.importorskip("numpy")
    np_state = np.random.get_state()
    with pytest.raises(CheckFailed, match=r"numpy.random.seed\(\) and left numpy's global"):
        with reseeds_named("your step"):
            np.random.seed(0)
    np.random.set_state(np_state)
    # only the answer's own reseeds count where the watch runs around the checker's code
    with reseeds_named("your step", answers_only=True):
        random.seed(5)
    random.setstate(state)


def test_allocations_names_torch_storages_and_python_peaks_of_a_size_and_no_less():
    import numpy as np

    from d2lgpu.checks._kit_calls import allocations

    for make, what in (
        (lambda: torch.empty(3 * 2**20, dtype=torch.uint8), "empty"),
        (lambda: torch.zeros(2**19), "zeros"),  # 2 MiB of float32
        (lambda: np.zeros(2**21, np.uint8), "python"),  # NumPy reports to tracemalloc
        (lambda: bytearray(2**21), "python"),
    ):
        with allocations(2**20) as found:
            made = make()
        assert [w for w, _ in found] == [what], found
        assert found[0][1] >= 2**20
        del made
    x = torch.ones(2**20)
    with allocations(2**20) as found:  # views, scalars and small tensors are no allocation
        x.view(-1), x[::2], torch.tensor(3.0) * 2, sum(range(1000)), torch.ones(100)
    assert found == []
    import tracemalloc

    tracemalloc.start()  # a trace of the caller's own goes on after the block
    try:
        held = bytearray(2**21)  # the caller's memory, and a peak of the caller's before
        spike = bytearray(2**22)
        del spike
        with allocations(2**20) as found:
            pass
        assert found == [] and tracemalloc.is_tracing()
        with allocations(2**20) as found:  # counted from what was traced at the start
            made = bytearray(2**21)
        assert [w for w, _ in found] == ["python"] and 2**21 <= found[0][1] < 2**22, found
        del held, made
    finally:
        tracemalloc.stop()
