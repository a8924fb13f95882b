"""Chapter 10's checkers: right answers in several styles pass, realistic wrong ones fail
with a hint that names the mistake. 10.allreduce_grads runs each answer in two forked gloo
ranks (a fraction of a second each once torch is warm)."""

import functools
import math

import pytest
import torch
import torch.distributed as dist
from grading_helpers import assert_fails, assert_passes

from d2lgpu.checks import _ranks
from d2lgpu.grading import check

FACTORS = {"all_reduce": 2.0, "all_gather": 1.0, "reduce_scatter": 1.0, "broadcast": None}


# --- 10.bus_bandwidth ------------------------------------------------------------------


def bw_table(nbytes, seconds, world_size, collective):
    factors = {
        "all_reduce": 2 * (world_size - 1) / world_size,
        "all_gather": (world_size - 1) / world_size,
        "reduce_scatter": (world_size - 1) / world_size,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[collective]


def bw_branches(nbytes, seconds, world_size, collective):
    algbw = nbytes / 1e9 / seconds
    n = float(world_size)
    if collective == "all_reduce":
        return [algbw, 2.0 * algbw * (n - 1.0) / n]
    if collective in ("all_gather", "reduce_scatter"):
        return [algbw, algbw - algbw / n]
    if collective == "broadcast":
        return [algbw, algbw]
    raise ValueError(f"unknown collective {collective}")


@pytest.mark.parametrize("answer", [bw_table, bw_branches])
def test_bus_bandwidth_right_answers_pass(answer):
    result = assert_passes("10.bus_bandwidth", answer)
    assert any("unknown collective" in p for p in result.passed)


def wrong_bw(algbw_fn=None, factor_fn=None, swap=False, raises=True):
    """An answer with one mistake: its algbw, its factor, swapped outputs, or no ValueError."""

    def answer(nbytes, seconds, world_size, collective):
        if raises and collective not in FACTORS:
            raise ValueError(collective)
        alg = (algbw_fn or (lambda b, s, n: b / s / 1e9))(nbytes, seconds, world_size)
        bus = alg * (factor_fn or (lambda n, c: bw_table(1e9, 1, n, c)[1]))(world_size, collective)
        return (bus, alg) if swap else (alg, bus)

    return answer


@pytest.mark.parametrize(
    "answer, hint",
    [
        (wrong_bw(algbw_fn=lambda b, s, n: b / s / 2**30), "GiB/s"),
        (wrong_bw(algbw_fn=lambda b, s, n: b / s / 1e6), "MB/s"),
        (wrong_bw(algbw_fn=lambda b, s, n: b / s / 1e9 / n), "per rank"),
        (wrong_bw(algbw_fn=lambda b, s, n: s / b * 1e9), "inverted"),
        (wrong_bw(factor_fn=lambda n, c: 2 * (n - 1) // n), "integer division"),
        (wrong_bw(factor_fn=lambda n, c: 2 * (n - 1) / n), "the all-reduce factor"),
        (wrong_bw(factor_fn=lambda n, c: (n - 1) / n), "(n - 1) / n, the all-gather factor"),
        (wrong_bw(factor_fn=lambda n, c: n / (n - 1)), "upside down"),
        (wrong_bw(factor_fn=lambda n, c: 1.0), "no factor"),
        (wrong_bw(swap=True), "swapped"),
        # rounded to 4 significant digits: up to 0.05% off
        (wrong_bw(algbw_fn=lambda b, s, n: float(f"{b / s / 1e9:.4g}")), "should be"),
        (wrong_bw(factor_fn=lambda n, c: (n - 1) // n), "which is 0"),
        (wrong_bw(factor_fn=lambda n, c: 2.0 if c == "all_reduce" else 1.0), "a factor of 2"),
        (
            wrong_bw(
                factor_fn=lambda n, c: bw_table(1e9, 1, n, c)[1] if c in FACTORS else 1.0,
                raises=False,
            ),
            "ValueError",
        ),  # fmt: skip
    ],
)
def test_bus_bandwidth_mistakes_are_named(answer, hint):
    assert_fails("10.bus_bandwidth", answer, hint)


def test_bus_bandwidth_reductions_but_broadcast_factor_wrong():
    def answer(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (
            (alg, alg * (world_size - 1) / world_size) if collective == "broadcast" else (alg, bus)
        )

    assert_fails("10.bus_bandwidth", answer, "busbw of broadcast", "(n - 1) / n")


@pytest.mark.parametrize("key", ["nbytes_seconds", "nbytes_seconds_collective"])
def test_an_answer_kept_from_an_earlier_call_is_named_with_that_call(key):
    # A cache keyed without the collective (or the world size) gives back, for all_gather,
    # what all_reduce returned with the same nbytes and seconds: its factors are right, its
    # key is not. Keyed on the collective too, only the 1-rank all_reduce meets a kept pair.
    kept: dict = {}

    def cached(nbytes, seconds, world_size, collective):
        k = (nbytes, seconds) + ((collective,) if key.endswith("collective") else ())
        return kept.setdefault(k, bw_table(nbytes, seconds, world_size, collective))

    # keyed on the collective too, all_reduce on 1 rank gets what it returned on 2
    later = "1, 'all_reduce'" if key.endswith("collective") else "2, 'all_gather'"
    hint = assert_fails("10.bus_bandwidth", cached, "An answer kept from an earlier call").hint
    assert hint.startswith(f"bandwidths(1048576, 0.001, {later}) returned (1.04858, "), hint
    assert "the pair it returned earlier for bandwidths(1048576, 0.001, 2, 'all_reduce'); " in hint
    assert "called with arguments no call had used, bandwidths(1048577, 0.001, " in hint, hint
    from d2lgpu.checks._ch10_bandwidth import kept_hint

    earlier = [((8, 1.0, 2), "all_reduce", (8e-9, 8e-9))]

    def said(case, collective, got):
        kept.clear()  # each probe finds the cache as the checker's calls left it
        return kept_hint(cached, earlier, case, collective, got)

    assert said((8, 1.0, 2), "all_gather", (8e-9, 8e-9)) == (
        "bandwidths(8, 1.0, 2, 'all_gather') returned (8e-09, 8e-09): the pair it returned "
        "earlier for bandwidths(8, 1.0, 2, 'all_reduce'); called with arguments no call had "
        "used, bandwidths(9, 1.0, 2, 'all_gather'), it is right. An answer kept from an earlier "
        "call (a cache, a dict, a value kept between calls) keyed on less than all four "
        "arguments: busbw depends on all four, so compute each call's values from them all, or "
        "key a cache on all four"
    )
    assert said((8, 1.0, 2), "all_gather", (8e-9, 2e-9)) is None  # a factor of its own
    assert said((8, 1.0, 2), "all_reduce", (8e-9, 8e-9)) is None  # the same call
    assert "the pair it returned" in said((8, 1.0, 4), "all_reduce", (8e-9, 8e-9))  # another n
    # another call's factor at the same world size, or its algbw for other bytes or seconds
    hint = said((16, 1.0, 2), "all_gather", (1.6e-8, 1.6e-8))
    if key.endswith("collective"):  # then no collective gets another's factor: not kept
        assert hint is None, hint
    else:  # the two calls repeat it on a world size no case used, all_gather alone is right
        assert ": the factor (busbw / algbw) it returned earlier for bandwidths(8, 1.0, 2, " in hint
        assert (
            "on 11 ranks, which no case used, bandwidths(17, 1.0, 11, 'all_reduce') then "
            "bandwidths(17, 1.0, 11, 'all_gather') do the same. An answer kept" in hint
        ), hint
    assert ": the algbw it returned earlier" in said((8, 2.0, 2), "all_gather", (8e-9, 4e-9))
    assert said((8, 2.0, 2), "all_gather", (4e-9, 2e-9)) is None  # right: nothing kept
    # earlier calls of other bytes, or of another pair, are looked past to the one kept
    earlier = [((16, 1.0, 2), "all_reduce", (1.6e-8, 1.6e-8)),
               ((8, 1.0, 2), "all_reduce", (8e-9, 4e-9)),
               ((8, 1.0, 4), "all_reduce", (8e-9, 1.2e-8))]  # fmt: skip
    assert said((8, 1.0, 2), "all_gather", (8e-9, 1.2e-8)).startswith(
        "bandwidths(8, 1.0, 2, 'all_gather') returned (8e-09, 1.2e-08): the pair it returned "
        "earlier for bandwidths(8, 1.0, 4, 'all_reduce'); called"
    )
    # a formula wrong whatever was called before is wrong with arguments never seen too
    every_time = wrong_bw(factor_fn=lambda n, c: 2 * (n - 1) / n)
    for later in ((8, 1.0, 2), (8, 1.0, 4)):
        assert kept_hint(every_time, earlier, later, "all_gather", (8e-9, 8e-9)) is None


def test_bus_bandwidth_bad_shapes_and_stub():
    assert_fails("10.bus_bandwidth", lambda *a: 1.0, "pair (algbw, busbw)")
    assert_fails("10.bus_bandwidth", lambda *a: ("fast", 1), "numbers")
    assert_fails("10.bus_bandwidth", 3, "the function bandwidths")

    def stub(nbytes, seconds, world_size, collective):
        raise NotImplementedError("your code here")

    assert check("10.bus_bandwidth", stub, quiet=True).status == "not attempted"


def test_world_of_one_has_no_bus_traffic():
    def answer(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (alg, alg) if world_size == 1 else (alg, bus)

    assert_fails("10.bus_bandwidth", answer, "1 rank", "= 0")
    assert math.isclose(bw_table(2**20, 1e-3, 1, "all_reduce")[1], 0.0)


# --- 10.allreduce_grads ----------------------------------------------------------------


def avg_loop(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


def avg_async(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    works = [dist.all_reduce(g, op=dist.ReduceOp.AVG, async_op=True) for g in grads]
    for work in works:
        work.wait()


def avg_futures_then(model):
    """Each all-reduce's future chained with then() to its division; the chained futures
    complete after the all-reduces': waiting on them waits on the all-reduces."""
    world = dist.get_world_size()
    futures = [
        dist.all_reduce(p.grad, async_op=True).get_future().then(lambda f, g=p.grad: g.div_(world))
        for p in model.parameters()
        if p.grad is not None
    ]
    torch.futures.wait_all(futures)


@pytest.mark.parametrize("answer", [avg_loop, avg_async, avg_futures_then])
def test_allreduce_grads_right_answers_pass(answer):
    result = assert_passes("10.allreduce_grads", answer)
    assert any("one process" in p for p in result.passed)


def summed(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)


def only_weights(model):
    for p in model.parameters():
        if p.grad is not None and p.dim() > 1:
            dist.all_reduce(p.grad)
            p.grad /= dist.get_world_size()


def max_op(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.MAX)


def no_skip(model):
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= dist.get_world_size()


def reduces_data(model):
    for p in model.parameters():
        dist.all_reduce(p.data)
        p.data /= dist.get_world_size()


def sums_data(model):
    for p in model.parameters():
        dist.all_reduce(p.data)


def flat_not_copied_back(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()


def divides_twice(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            p.grad /= world
            dist.all_reduce(p.grad)
            p.grad /= world


def broadcasts(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.broadcast(p.grad, src=0)


def zero_grad_after(model):
    avg_loop(model)
    model.zero_grad()  # set_to_none=True: every p.grad is None afterwards


def fills_missing_grads(model):
    for p in model.parameters():
        if p.grad is None:
            p.grad = torch.zeros_like(p)  # "every parameter gets a gradient"
    avg_loop(model)


def copied_back_transposed(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, average in zip(grads, flat.split([g.numel() for g in grads]), strict=True):
        # the right sum in every tensor, the wrong element in each place
        g.copy_(average.view(g.shape[::-1]).t() if g.dim() == 2 else average.flip(0))


@pytest.mark.parametrize(
    "answer, hint",
    [
        (zero_grad_after, "is None after your function"),
        (fills_missing_grads, "but has one after your function"),
        (
            copied_back_transposed,
            "holds averages, but of other gradients, or of other places of its own",
        ),
        (summed, "summed, not averaged"),
        (only_weights, "body.0.bias's gradient on rank 0 (step 0) was never all-reduced"),
        (max_op, "the maximum over ranks"),
        (no_skip, "skip them"),
        (reduces_data, "not p, p.data or a copy"),
        (sums_data, "average p.grad, not p"),
        (flat_not_copied_back, "copy the reduced values back"),
        (divides_twice, "divided by the world size twice"),
        (broadcasts, "is rank 0's gradient (a broadcast): all_reduce instead"),
    ],
)
def test_allreduce_grads_mistakes_are_named(answer, hint):
    assert_fails("10.allreduce_grads", answer, hint)


def test_a_collective_on_one_rank_only_is_reported_not_hung(monkeypatch):
    monkeypatch.setattr(_ranks, "COLLECTIVE_TIMEOUT_S", 3.0)

    def rank0_only(model):
        if dist.get_rank() == 0:
            avg_loop(model)

    assert_fails("10.allreduce_grads", rank0_only, "same collectives")


def test_allreduce_grads_stub_and_not_a_function():
    def stub(model):
        raise NotImplementedError("your code here")

    assert check("10.allreduce_grads", stub, quiet=True).status == "not attempted"
    assert_fails("10.allreduce_grads", None, "the function average_gradients")


def test_ranks_that_never_finish_are_stopped(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(_ranks, "WAIT_S", 2.0)

    def loops(model):
        while True:
            pass

    assert_fails("10.allreduce_grads", loops, "did not finish", "never returns")
    assert multiprocessing.active_children() == []  # both ranks killed and reaped


# A second run on 3 ranks: a world size written in is seen.


def halves(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= 2  # "two GPUs", as on the machine it was written on


def mul_half(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.mul_(0.5)


@pytest.mark.parametrize("answer", [halves, mul_half])
def test_a_world_size_written_in_is_named(answer):
    assert_fails("10.allreduce_grads", answer, "divided by 2, not by the world size (3 here)")


class Averager:
    """A callable object: one flat buffer, reduced with out= and copied back per gradient."""

    def __call__(self, model):
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        torch.div(flat, dist.get_world_size(), out=flat)
        for g, part in zip(grads, flat.split([g.numel() for g in grads]), strict=True):
            g.copy_(part.view_as(g))


def averaged_through_numpy(model, *, log=False):
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad = torch.from_numpy(p.grad.numpy() / dist.get_world_size())
        if log:
            print(name, tuple(p.grad.shape))


@pytest.mark.parametrize(
    "answer",
    [Averager(), functools.partial(averaged_through_numpy, log=True)],
    ids=["callable_out", "numpy_partial_print"],
)
def test_allreduce_grads_other_styles_pass(answer):
    assert_passes("10.allreduce_grads", answer)


# --- the rank jobs' collective watch (checks/_kit_collectives), and rules that read it ---


def test_first_mismatch_names_where_the_ranks_collectives_first_differ():
    from d2lgpu.checks._kit_collective_reads import first_mismatch

    same = ["all_reduce [3]", "broadcast [4]"]
    assert first_mismatch([same, list(same)]) is None
    assert first_mismatch([[], []]) is None
    assert first_mismatch([same, ["all_reduce [3]", "all_reduce [4]"]]) == (
        "their collective number 2 differs (rank 0: broadcast [4]; rank 1: all_reduce [4])"
    )
    assert "rank 1: none" in first_mismatch([same, same[:1]])


def _waits_seen(rank, world):
    """In a rank: how the watch counts the waits of each way to wait on an async all-reduce."""
    import torch.futures

    from d2lgpu.checks._kit_collectives import CollectiveWatch

    original = dist.all_reduce
    with CollectiveWatch() as watch:
        h = [dist.all_reduce(torch.ones(3), async_op=True) for _ in range(9)]
        h[0].wait()
        h[1].get_future().wait()
        torch.futures.wait_all([h[2].get_future()])
        torch.futures.collect_all([h[3].get_future()]).wait()
        # futures chained with then(): they complete after the collective's own
        torch.futures.wait_all([h[5].get_future().then(lambda f: f.value()[0].div_(2))])
        h[6].get_future().then(lambda f: f.value()).then(lambda f: f.value()).wait()
        torch.futures.collect_all([h[7].get_future().then(lambda f: 1)]).wait()
        while not h[8].get_future().done():
            pass
        dist.broadcast(torch.ones(2), src=0)
    restored = dist.all_reduce is original
    return [c.waits for c in watch.calls], [c.kind for c in watch.calls], restored


def test_the_watch_counts_every_way_to_wait_and_puts_the_collectives_back():
    from d2lgpu.ranks import run_ranks

    waits, kinds, restored = run_ranks(_waits_seen, world=1)[0]
    # the fifth handle was never waited on; done() may be asked many times
    assert [bool(w) for w in waits] == [True] * 4 + [False] + [True] * 4 + [False], waits
    assert kinds == ["all_reduce"] * 9 + ["broadcast"] and restored


def test_a_factor_written_in_for_two_ranks_is_told_from_an_integer_division():
    from d2lgpu.checks._ch10_bandwidth import fixed_for_two_ranks as _fixed_for_two_ranks

    two = {"all_reduce": 1.0, "all_gather": 0.5, "reduce_scatter": 0.5, "broadcast": 1.0}

    def fixed(nbytes, seconds, n, collective):
        alg = nbytes / seconds / 1e9
        return alg, alg * two[collective]

    def integer(nbytes, seconds, n, collective):
        alg = nbytes / seconds / 1e9
        factor = {"all_reduce": 2 * (n - 1) // n, "broadcast": 1}.get(collective, (n - 1) // n)
        return alg, alg * factor

    assert "Written in for 2 ranks, or" in _fixed_for_two_ranks(fixed)
    assert _fixed_for_two_ranks(integer) is None
    assert check("10.bus_bandwidth", integer, quiet=True).hint.count("integer division") == 1


def test_an_early_exit_is_named_with_its_line_not_the_peers_lost_connection():
    from d2lgpu.checks._ch05_launch import left_early_hint

    lost = "RuntimeError: Connection closed by peer [127.0.0.1]:4000"
    records = [
        {"ended": {"how": "error", "what": lost}},
        {"ended": {"how": "exit", "code": "0", "line": 74, "text": "sys.exit(0)"}},
    ]
    hint = left_early_hint(records, lost)
    assert hint.startswith("rank 1 called sys.exit(0) at line 74 (`sys.exit(0)`): it left early")
    assert left_early_hint(records, "ValueError: a") is None  # its own error comes first
    returned = [records[0], {"ended": {"how": "returned"}}]
    assert left_early_hint(returned, lost).startswith("rank 1 returned from the script")


# --- 10.bus_bandwidth: every hint in full --------------------------------------------------


def test_bus_bandwidth_pass_lines_name_what_was_checked():
    assert assert_passes("10.bus_bandwidth", bw_table).passed == [
        "all_reduce: algbw and busbw in GB/s for 8 cases, 2-16 ranks",
        "all_gather: algbw and busbw in GB/s for 8 cases, 2-16 ranks",
        "reduce_scatter: algbw and busbw in GB/s for 8 cases, 2-16 ranks",
        "broadcast: algbw and busbw in GB/s for 8 cases, 2-16 ranks",
        "1 rank: busbw 0 for all_reduce, all_gather and reduce_scatter, algbw for broadcast",
        "the world size given, not WORLD_SIZE in the environment",
        "an unknown collective raises ValueError",
    ]


@pytest.mark.parametrize(
    "answer, hint",
    [
        (
            wrong_bw(algbw_fn=lambda b, s, n: b / s / 2**30),
            "algbw is in GiB/s (2**30): use GB/s, nbytes / seconds / 1e9, for the whole buffer",
        ),
        (wrong_bw(algbw_fn=lambda b, s, n: b / s), "algbw is in bytes/s: use GB/s"),
        (wrong_bw(algbw_fn=lambda b, s, n: 8 * b / s / 1e9), "algbw is in Gbit/s: use GB/s"),
        (
            wrong_bw(algbw_fn=lambda b, s, n: b / s / 1e9 / n),
            "algbw is per rank (divided by world_size): use GB/s",
        ),
        (
            wrong_bw(algbw_fn=lambda b, s, n: float(f"{b / s / 1e9:.4g}")),
            "algbw for 1048576 bytes in 0.001 s should be 1.04858 GB/s, got 1.049",
        ),
        (
            wrong_bw(factor_fn=lambda n, c: n / (n - 1)),
            "busbw of all_reduce: you used n / (n - 1): the factor upside down; nccl-tests' "
            "factors are 2 (n - 1) / n for all_reduce, (n - 1) / n for all_gather and "
            "reduce_scatter, 1 for broadcast",
        ),
        (
            wrong_bw(factor_fn=lambda n, c: 2 * n / (n - 1)),
            "busbw of all_reduce: you used 2 n / (n - 1): the factor upside down;",
        ),
        (
            wrong_bw(factor_fn=lambda n, c: 1.0),
            "you used busbw = algbw, no factor (2 * (n - 1) // n, an integer division, is 1 "
            "too: use /; and so is a factor worked out at the first call, all_reduce on 2 "
            "ranks, and kept)",
        ),
        (
            wrong_bw(factor_fn=lambda n, c: (n - 1) // n),
            "you used (n - 1) // n, an integer division, which is 0: use /",
        ),
    ],
)
def test_bus_bandwidth_hints_in_full(answer, hint):
    assert_fails("10.bus_bandwidth", answer, hint)


@pytest.mark.parametrize(
    "answer, hint",
    [
        (wrong_bw(swap=True), "the two values are swapped: return (algbw, busbw), in that order"),
        (
            wrong_bw(algbw_fn=lambda b, s, n: b / s / 1e6),
            "algbw is in MB/s: use GB/s, nbytes / seconds / 1e9, for the whole buffer",
        ),
        (
            wrong_bw(algbw_fn=lambda b, s, n: s / b * 1e9),
            "algbw is inverted: bandwidth is bytes divided by seconds",
        ),
    ],
)
def test_bus_bandwidth_hints_that_are_one_sentence(answer, hint):
    assert check("10.bus_bandwidth", answer, quiet=True).hint == hint


def test_bus_bandwidth_names_a_gathered_buffer_counted_world_size_times():
    def times_world(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        if collective in ("all_gather", "reduce_scatter"):  # "each rank sends nbytes"
            return alg * world_size, bus * world_size
        return alg, bus

    result = assert_fails(
        "10.bus_bandwidth",
        times_world,
        "all_gather: algbw is world_size times too large: nbytes is already the whole buffer, "
        "as nccl-tests counts it (for all_gather and reduce_scatter every rank's share "
        "together; for all_reduce and broadcast the buffer each rank holds); do not multiply "
        "it by world_size",
    )
    assert len(result.passed) == 1  # all_reduce's cases passed

    def everywhere(nbytes, seconds, world_size, collective):  # all_reduce's algbw too
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return alg * world_size, bus * world_size

    assert_fails("10.bus_bandwidth", everywhere, "all_reduce: algbw is world_size times too large")


def test_bus_bandwidth_names_a_share_for_the_buffer_a_rounded_value_and_a_refusal_in_kind():
    def share(nbytes, seconds, world_size, collective):  # reduce_scatter's output as nbytes
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (
            (alg / world_size, bus / world_size) if collective == "reduce_scatter" else (alg, bus)
        )

    assert_fails(
        "10.bus_bandwidth",
        share,
        "reduce_scatter: algbw is world_size times too small: nbytes is already the whole buffer "
        "(the input of reduce_scatter, the output of all_gather), as nccl-tests counts it, not "
        "one rank's share; do not divide it by world_size",
    )

    def rounded(nbytes, seconds, world_size, collective):
        return tuple(round(v, 2) for v in bw_table(nbytes, seconds, world_size, collective))

    assert_fails(
        "10.bus_bandwidth",
        rounded,
        "algbw is rounded to 2 decimal place(s): a small bandwidth loses its digits (or becomes "
        "0). Return the values unrounded, and round only where you print them",
    )

    def not_implemented(nbytes, seconds, world_size, collective):
        if collective == "all_to_everyone":
            raise NotImplementedError(f"no factor for {collective!r}")
        return bw_table(nbytes, seconds, world_size, collective)

    assert_fails(
        "10.bus_bandwidth",
        not_implemented,
        "bandwidths(..., 'all_to_everyone') raised NotImplementedError (no factor for "
        "'all_to_everyone'): an unknown collective must raise ValueError naming the allowed ones",
    )


def test_bus_bandwidth_names_the_case_of_a_factor_no_known_mistake_explains():
    def gather_one_over_n(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (alg, alg / world_size) if collective == "all_gather" else (alg, bus)

    assert_fails(
        "10.bus_bandwidth",
        gather_one_over_n,
        "busbw of all_gather for 4096 bytes, 0.00073 s, 4 ranks should be 0.00420822 GB/s "
        "(algbw x 0.75), got 0.0014027397260273973",
    )


def test_bus_bandwidth_hints_for_what_is_not_a_pair_of_numbers():
    assert_fails(
        "10.bus_bandwidth",
        lambda *a: 1.0,
        "bandwidths(1048576, 0.001, 2, 'all_reduce') returned 1.0: return a pair (algbw, busbw)",
    )
    assert_fails("10.bus_bandwidth", lambda *a: (1.0, 2.0, 3.0), "return a pair (algbw, busbw)")
    assert_fails(
        "10.bus_bandwidth",
        lambda *a: ("fast", 1),
        "bandwidths returned ('fast', 1): both values must be numbers",
    )
    assert_fails(
        "10.bus_bandwidth", [1.0, 2.0], "the answer must be the function bandwidths, got [1.0, 2.0]"
    )
    assert_passes("10.bus_bandwidth", lambda *a: list(bw_table(*a)))  # a list is a pair too


def test_bus_bandwidth_on_one_rank_a_broadcast_keeps_its_factor_of_1():
    def none_on_one_rank(nbytes, seconds, world_size, collective):  # round 51's w06
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (alg, 0.0) if world_size == 1 else (alg, bus)

    assert_fails(
        "10.bus_bandwidth",
        none_on_one_rank,
        "broadcast on 1 rank: a broadcast's factor is 1 at every world size, so busbw = algbw = "
        "1.04858, got 0.0",
    )


def test_bus_bandwidth_reads_the_world_size_given_not_the_environment():
    import os

    def from_torchrun(nbytes, seconds, world_size, collective):  # round 51's w04
        return bw_table(nbytes, seconds, int(os.environ.get("WORLD_SIZE", world_size)), collective)

    before = os.environ.get("WORLD_SIZE")
    assert_fails(
        "10.bus_bandwidth",
        from_torchrun,
        "bandwidths(1048576, 0.001, 2, 'all_reduce') returned (1.04858, 1.83501) in a process "
        "whose environment has WORLD_SIZE=8, the busbw of 8 ranks: the numbers are of the run "
        "measured, on the world_size given (2), not of this process. Read the world size from "
        "the argument, not from os.environ",
    )
    assert os.environ.get("WORLD_SIZE") == before  # put back


def test_bus_bandwidth_reads_the_world_size_given_not_the_process_groups():
    import torch.distributed as dist

    def from_the_group(nbytes, seconds, world_size, collective):  # round 65's w09
        n = dist.get_world_size() if dist.is_initialized() else world_size
        return bw_table(nbytes, seconds, n, collective)

    assert_fails(
        "10.bus_bandwidth",
        from_the_group,
        "bandwidths(1048576, 0.001, 2, 'all_reduce') returned (1.04858, 1.83501) in a process "
        "that is a rank of a group of 8 (dist.get_world_size() = 8), the busbw of 8 ranks",
        "Read the world size from the argument, not from dist.get_world_size()",
    )
    assert not dist.is_initialized()  # put back


def test_bus_bandwidth_names_a_wait_for_the_gpu_or_cuda_started():
    import torch

    def waits(nbytes, seconds, world_size, collective):  # round 65's w12
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        return bw_table(nbytes, seconds, world_size, collective)

    def starts_cuda(nbytes, seconds, world_size, collective):
        if torch.cuda.is_available():
            torch.cuda.current_stream()
        return bw_table(nbytes, seconds, world_size, collective)

    available = torch.cuda.is_available()
    assert_fails(
        "10.bus_bandwidth", waits, "with a GPU present (torch.cuda.is_available() True), "
        "bandwidths made torch.cuda.synchronize(): the seconds are given", "touch no device",
    )  # fmt: skip
    assert_fails("10.bus_bandwidth", starts_cuda, "bandwidths made a CUDA call (it starts CUDA")
    assert torch.cuda.is_available() == available  # put back
    assert_passes("10.bus_bandwidth", bw_table)


def test_bus_bandwidth_names_a_world_size_the_answer_writes_and_leaves_the_callers():
    """An answer that writes WORLD_SIZE while the checker's case has it set is named, and
    the variable goes back to what the caller had, not to the case's value."""
    import os

    space: dict = {"bw_table": bw_table}
    source = (
        "import os\n"
        "def bandwidths(nbytes, seconds, world_size, collective):\n"
        "    os.environ['WORLD_SIZE'] = str(world_size)  # for the ranks it starts\n"
        "    return bw_table(nbytes, seconds, world_size, collective)\n"
    )
    exec(compile(source, "/tmp/work/answer.py", "exec"), space)  # noqa: S102 - a learner's file
    saved = dict(os.environ)
    assert_fails(
        "10.bus_bandwidth",
        space["bandwidths"],
        "bandwidths leaves a process-wide setting changed (os.environ['WORLD_SIZE'] = '2')",
    )
    assert dict(os.environ) == saved


def test_a_factor_is_named_as_kept_only_where_two_right_calls_repeat_it_on_a_fresh_world_size():
    from d2lgpu.checks._ch10_bandwidth import _factor_kept_again

    last: dict = {}

    def factor_of_the_call_before(nbytes, seconds, world_size, collective):
        # all_gather after another collective on the same ranks takes that one's factor
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        kept = last.get(world_size)
        last[world_size] = bus / alg
        return (alg, alg * kept) if collective == "all_gather" and kept else (alg, bus)

    assert _factor_kept_again(factor_of_the_call_before, (8, 1.0, 2), "all_gather", "all_reduce")

    def all_reduce_wrong_everywhere(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)  # all_reduce's factor 1
        return (alg, alg) if collective in ("all_reduce", "all_gather") else (alg, bus)

    # all_gather alone is wrong too: a formula, not a factor kept
    assert (
        _factor_kept_again(all_reduce_wrong_everywhere, (8, 1.0, 2), "all_gather", "all_reduce")
        is None
    )
    calls: list = []

    def wrong_after_any_call(nbytes, seconds, world_size, collective):
        # all_reduce right; all_gather right alone, off by 10% after a call on its ranks
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        again = collective == "all_gather" and world_size in calls
        calls.append(world_size)
        return (alg, 1.1 * bus) if again else (alg, bus)

    # wrong after the call before, but not with its factor: nothing of that call kept
    assert _factor_kept_again(wrong_after_any_call, (8, 1.0, 2), "all_gather", "all_reduce") is None

    def before_wrong_on_fresh_ranks(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        if collective == "all_reduce" and world_size > 2:
            return alg, alg  # all_reduce wrong on fresh ranks: the repeat proves nothing
        return (alg, alg) if collective == "all_gather" and world_size == 11 else (alg, bus)

    assert (
        _factor_kept_again(before_wrong_on_fresh_ranks, (8, 1.0, 2), "all_gather", "all_reduce")
        is None
    )


def test_bus_bandwidth_a_wrong_algbw_on_one_rank_is_named_with_its_busbw():
    def doubled_on_one_rank(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (2 * alg, 2 * alg) if world_size == 1 else (alg, bus)

    assert_fails(
        "10.bus_bandwidth",
        doubled_on_one_rank,
        "broadcast on 1 rank: a broadcast's factor is 1 at every world size, so busbw = algbw = "
        "1.04858, got 2.097152 (and algbw 2.097152, not 1.04858)",
    )

    def doubled_all_reduce_on_one_rank(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (2 * alg, 0.5) if (world_size, collective) == (1, "all_reduce") else (alg, bus)

    assert_fails(
        "10.bus_bandwidth",
        doubled_all_reduce_on_one_rank,
        "all_reduce on 1 rank moves nothing over a link: busbw = algbw * 2 (1 - 1) / 1 = 0, got "
        "0.5 (and algbw 2.097152, not 1.04858)",
    )


def test_bus_bandwidth_the_local_world_size_is_not_read_either():
    import os

    def local(nbytes, seconds, world_size, collective):
        n = int(os.environ.get("LOCAL_WORLD_SIZE", world_size))
        return bw_table(nbytes, seconds, n, collective)

    assert_fails("10.bus_bandwidth", local, "the busbw of 8 ranks", "not from os.environ")

    def misread(nbytes, seconds, world_size, collective):  # read, then used otherwise
        n = int(os.environ.get("WORLD_SIZE", world_size + 1)) - 5
        return bw_table(
            nbytes, seconds, n if "WORLD_SIZE" in os.environ else world_size, collective
        )

    hint = assert_fails("10.bus_bandwidth", misread, "whose environment has WORLD_SIZE=8:").hint
    assert "the busbw of 8 ranks" not in hint, hint


def test_bus_bandwidth_one_rank_and_unknown_collective_hints_in_full():
    def answer(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (alg, alg) if world_size == 1 else (alg, bus)

    assert_fails(
        "10.bus_bandwidth",
        answer,
        "all_reduce on 1 rank moves nothing over a link: busbw = algbw * 2 (1 - 1) / 1 = 0, "
        "got 1.048576",
    )
    assert_fails(
        "10.bus_bandwidth",
        wrong_bw(
            raises=False,
            factor_fn=lambda n, c: 1.0 if c not in FACTORS else bw_table(1e9, 1, n, c)[1],
        ),
        "bandwidths(..., 'all_to_everyone') returned instead of raising ValueError: an unknown "
        "collective must raise ValueError naming the allowed ones",
    )


def bw_any_case(nbytes, seconds, world_size, collective):
    """The collective's name in any case ("All_Reduce"): the prompt's "any other collective"."""
    return bw_table(nbytes, seconds, world_size, collective.lower())


def bw_aliases(nbytes, seconds, world_size, collective):
    """nccl-tests' and torch's spellings ("allreduce", "bcast") taken as the four names."""
    names = {name.replace("_", ""): name for name in FACTORS} | {"bcast": "broadcast"}
    return bw_table(nbytes, seconds, world_size, names.get(collective, collective))


def bw_one_rank_first(nbytes, seconds, world_size, collective):
    """world_size 1 answered before the collective's name is looked at."""
    if world_size == 1:  # a broadcast's factor is 1 there too
        alg = nbytes / seconds / 1e9
        return alg, alg if collective == "broadcast" else 0.0
    return bw_table(nbytes, seconds, world_size, collective)


def bw_substring(nbytes, seconds, world_size, collective):
    """`collective in ("broadcast")`: a substring test, not a one-element tuple."""
    if collective in ("broadcast"):  # a string, not a tuple: the mistake under test
        return nbytes / seconds / 1e9, nbytes / seconds / 1e9
    return bw_table(nbytes, seconds, world_size, collective)


_EXACTLY = (
    "returned instead of raising ValueError: the collective is one of 'all_reduce', "
    "'all_gather', 'reduce_scatter' and 'broadcast', spelled exactly so: any other string, "
)


@pytest.mark.parametrize(
    "answer, hint",
    [
        (
            bw_any_case,
            "bandwidths(2**20, 1e-3, 2, 'All_Reduce') " + _EXACTLY + "in another case "
            "('All_Reduce', 'BROADCAST') too, must raise it",
        ),
        (
            bw_aliases,
            "bandwidths(2**20, 1e-3, 2, 'allreduce') " + _EXACTLY + "an alias ('allreduce', "
            "'all-gather', 'bcast') too, must raise it",
        ),
        (
            bw_one_rank_first,
            "bandwidths(2**20, 1e-3, 1, 'all_to_everyone') returned instead of raising "
            "ValueError: on 1 rank too an unknown collective must raise ValueError: check the "
            "name before any shortcut for world_size 1",
        ),
        (
            bw_substring,
            "bandwidths(2**20, 1e-3, 2, 'cast') " + _EXACTLY + "a part of one of them too "
            "('cast', 'reduce', ''), must raise it. (`c in ('broadcast')` tests for a substring: "
            "('broadcast') is a string, ('broadcast',) a tuple)",
        ),
    ],
)
def test_bus_bandwidth_other_strings_than_the_four_names_must_raise(answer, hint):
    """The prompt: "Any other `collective` raises ValueError", whatever the string."""
    assert_fails("10.bus_bandwidth", answer, hint)


def test_bus_bandwidth_an_unknown_name_raising_another_error_is_named():
    def empty_is_index_error(nbytes, seconds, world_size, collective):
        if collective == "":
            raise IndexError("string index out of range")
        return bw_table(nbytes, seconds, world_size, collective)

    assert_fails(
        "10.bus_bandwidth",
        empty_is_index_error,
        "bandwidths(2**20, 1e-3, 2, '') raised IndexError (string index out of range): an "
        "unknown collective must raise ValueError naming the allowed ones",
    )


def test_busbw_divided_by_the_factor_is_named():
    def divided(nbytes, seconds, n, collective):
        alg, bus = bw_table(nbytes, seconds, n, collective)
        return alg, alg * alg / bus if bus else 0.0

    assert_fails(
        "10.bus_bandwidth",
        divided,
        "busbw of all_reduce: you divided algbw by the factor; busbw = algbw x factor (2 (n - 1) "
        "/ n for all_reduce, (n - 1) / n for all_gather and reduce_scatter, 1 for broadcast)",
    )


def test_a_factor_written_in_for_two_ranks_hint_in_full():
    def fixed(nbytes, seconds, n, collective):
        alg = nbytes / seconds / 1e9
        return alg, alg * {"all_reduce": 1.0, "broadcast": 1.0}.get(collective, 0.5)

    assert_fails(
        "10.bus_bandwidth",
        fixed,
        "busbw's factors do not depend on n: each collective's factor is its value for 2 ranks "
        "(all_reduce 1, all_gather and reduce_scatter 0.5, broadcast 1) at 2, 3, 4 and 8 ranks "
        "alike. Written in for 2 ranks, or worked out at the first call and kept? nccl-tests' "
        "factors depend on n: 2 (n - 1) / n for "
        "all_reduce (1.5 for 4 ranks), (n - 1) / n for all_gather and reduce_scatter, 1 for "
        "broadcast",
    )

    def right_at_2_and_8_only(nbytes, seconds, n, collective):  # not written in for 2 ranks
        alg, bus = bw_table(nbytes, seconds, n, collective)
        return (alg, bus) if n in (2, 8) else (alg, bus * 1.5)

    hint = check("10.bus_bandwidth", right_at_2_and_8_only, quiet=True).hint
    assert "Written in for 2 ranks" not in hint, hint

    factors: dict = {}

    def kept_from_the_first_call(nbytes, seconds, n, collective):
        if not factors:  # worked out once, at the first call's world size
            factors.update({c: bw_table(1e9, 1, n, c)[1] for c in ("all_reduce", "broadcast")})
            factors.update(all_gather=(n - 1) / n, reduce_scatter=(n - 1) / n)
        alg = nbytes / seconds / 1e9
        return alg, alg * factors[collective]

    hint = check("10.bus_bandwidth", kept_from_the_first_call, quiet=True).hint
    assert "worked out at the first call and kept?" in hint, hint

    def fixed_in_gib(nbytes, seconds, n, collective):  # two mistakes: the factor read first
        alg, bus = fixed(nbytes, seconds, n, collective)
        return alg * 1e9 / 2**30, bus * 1e9 / 2**30

    assert "Written in for 2 ranks, or" in check("10.bus_bandwidth", fixed_in_gib, quiet=True).hint


# --- 10.allreduce_grads: the rules applied to the ranks' records, in this process -----------


def _records(afters, locals_=None, calls=None, world=2, changed=(), unused_after=None):
    """Records of ``world`` ranks for every step: ``afters[rank]`` is each rank's gradient of a
    parameter ``w`` after the call (the same at every step), ``locals_`` what they computed;
    the parameter ``unused`` has no gradient, and ``unused_after`` on rank 1 after the call."""
    from d2lgpu.checks._kit_collectives import Call

    locals_ = locals_ or [torch.full((2, 2), float(r + 1)) for r in range(world)]
    if calls is None:
        calls = [Call(0, "all_reduce", (2, 2), 16, False)]
    return [
        {
            "steps": [
                {
                    "local": {"w": locals_[r], "unused": None},
                    "after": {"w": afters[r], "unused": unused_after if r else None},
                    "params_changed": list(changed),
                    "calls": calls,
                }  # fmt: skip
                for _ in range(_ranks.STEPS)
            ],
            "final": {"w": torch.zeros(2, 2)},
        }
        for r in range(world)
    ]


def test_rules_on_records_name_each_wrong_gradient():
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    ones, twos = torch.ones(2, 2), torch.full((2, 2), 2.0)
    mean = torch.full((2, 2), 1.5)
    _check_steps(_records([mean, mean]))  # the average on both ranks

    def hint(afters, **kwargs):
        with pytest.raises(Exception) as raised:
            _check_steps(_records(afters, **kwargs))
        return str(raised.value)

    assert hint([ones, ones]) == (
        "w's gradient on every rank (step 0) is rank 0's gradient (a broadcast): all_reduce "
        "instead, then divide by the world size"
    )
    assert hint([ones, twos]) == (
        "w's gradient on rank 0 (step 0) is not averaged (still this rank's own gradient): "
        "all_reduce p.grad itself, in place (not p, p.data or a copy), or copy the reduced "
        "values back into it"
    )
    cross = [torch.tensor([1.0, 4.0]), torch.tensor([3.0, 2.0])]  # neither the max nor the min
    assert hint([torch.tensor([2.0, 3.0]), cross[0]], locals_=cross) == (
        "w's gradient on rank 1 (step 0) is rank 0's gradient everywhere (a broadcast): "
        "all_reduce instead"
    )
    assert hint([twos, twos]).endswith(
        "is the maximum over ranks: all_reduce with the default op, SUM, then divide"
    )
    # with [1, 2] against [2, 2] the minimum is rank 0's own: crossing gradients tell them apart
    low, high = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    assert hint([low, low], locals_=cross).endswith(
        "is the minimum over ranks: all_reduce with the default op, SUM, then divide"
    )
    assert "is the maximum over ranks: all_reduce" in hint([high, high], locals_=cross)
    product = torch.tensor([3.0, 8.0])
    assert hint([product, product], locals_=cross).endswith(
        "is the product over ranks: all_reduce with op SUM, then divide"
    )
    assert hint([mean / 2, mean / 2]).endswith("is divided by the world size twice")
    assert hint([mean * 2, mean * 2]).endswith(
        "is summed, not averaged: divide by dist.get_world_size() after the all_reduce"
    )
    off = mean + 0.25
    assert hint([off, off]) == (
        "w's gradient on rank 0 (step 0) is not the average over the ranks (largest "
        "difference 0.25): each p.grad must end as the sum over ranks divided by the world size"
    )
    assert "largest difference nan" in hint([mean.reshape(4), mean.reshape(4)])
    assert hint([None, None]) == (
        "w's gradient on rank 0 (step 0) is None after your function: leave p.grad in place"
    )
    assert hint([mean, mean], unused_after=torch.zeros(2)) == (  # on rank 1 only
        "unused had no gradient (p.grad is None: it is not used in forward) but has one after "
        "your function: skip parameters whose grad is None"
    )
    assert hint([mean, mean], changed=["w"]) == (
        "your function changed the parameters ['w'] (step 0, rank 0): average p.grad, not p "
        "(or p.data); the optimizer moves p"
    )


def test_rules_on_records_name_a_world_size_written_in():
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    local = [torch.tensor([1.0, 6.0]), torch.tensor([4.0, 2.0]), torch.tensor([2.0, 1.0])]
    halved = sum(local) / 2
    with pytest.raises(Exception) as raised:
        _check_steps(_records([halved] * 3, locals_=local, world=3))
    assert str(raised.value).endswith(
        "is divided by 2, not by the world size (3 here): divide by dist.get_world_size()"
    )
    _check_steps(_records([sum(local) / 3] * 3, locals_=local, world=3))


def test_rules_on_records_name_extra_collectives():
    from d2lgpu.checks._ch10_averaging import check_cost as _check_cost
    from d2lgpu.checks._kit_collectives import Call

    mean = torch.full((2, 2), 1.5)
    reduce = Call(0, "all_reduce", (2, 2), 16, False)
    _check_cost(_records([mean, mean], calls=[reduce]))
    _check_cost(_records([mean, mean], calls=[]))  # values right without sending: not a cost
    with pytest.raises(Exception) as raised:
        _check_cost(_records([mean, mean], calls=[reduce, Call(1, "barrier", (), 0, False)]))
    assert str(raised.value) == (
        "besides all-reduces your function called a barrier (step 0, rank 0): an extra "
        "collective (2 collectives in all). The all-reduce already leaves the same sum on "
        "every rank; anything more is communication that costs time and changes nothing"
    )
    with pytest.raises(Exception) as raised:
        _check_cost(_records([mean, mean], calls=[reduce, reduce]))
    assert str(raised.value) == (
        "your function all-reduced 32 bytes for 16 bytes of gradients (step 0, rank 0), in 2 "
        "all-reduces: an extra collective. All-reduce each gradient once (model.parameters() "
        "lists a parameter shared by two layers once; state_dict() and named_modules() list it "
        "under each name)"
    )


def test_final_parameters_that_differ_are_named(monkeypatch):
    from d2lgpu.checks.ch10_inside_ddp import check_allreduce_grads

    mean = torch.full((2, 2), 1.5)
    records = _records([mean, mean])
    records[1]["final"] = {"w": torch.full((2, 2), 1e-3)}
    from d2lgpu.checks import ch10_inside_ddp

    monkeypatch.setattr(ch10_inside_ddp._ranks, "reference_steps", lambda: {"w": torch.zeros(2, 2)})
    monkeypatch.setattr(_ranks, "run_ranks", lambda answer, world=2: records[:world])
    passed = []
    with pytest.raises(Exception) as raised:
        check_allreduce_grads(avg_loop, passed)
    assert str(raised.value) == (
        "after 3 steps rank 1's w differs from one process trained on the global batch, though "
        "each step's gradients were right: does your function keep state between calls?"
    )
    assert passed == [
        "every gradient averaged over 2 gloo ranks, after each of 3 steps, and over 3 ranks (so "
        "that a division by 2 written in is seen)",
        "parameters without a gradient (unused) left alone; parameters unchanged",
        "each call all-reduces each gradient once, and calls no other collective",
    ]
    records[1]["final"] = {"w": torch.full((2, 2), 1e-7)}  # within atol
    check_allreduce_grads(avg_loop, passed)
    assert passed[-1] == "final parameters equal one process trained on the global batch"
    ones = {"w": torch.ones(2, 2)}  # the relative tolerance, 1e-4, around parameters of 1
    monkeypatch.setattr(ch10_inside_ddp._ranks, "reference_steps", lambda: ones)
    for rank in (0, 1):
        records[rank]["final"] = {"w": torch.full((2, 2), 1 + 5e-5)}
    check_allreduce_grads(avg_loop, passed)
    records[1]["final"] = {"w": torch.full((2, 2), 1 + 5e-4)}
    with pytest.raises(Exception, match="rank 1's w differs from one process"):
        check_allreduce_grads(avg_loop, passed)


def min_op(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.MIN)


def with_a_barrier(model):
    avg_loop(model)
    dist.barrier()  # "wait until every rank has its average"


def zeros_for_the_unused(model):
    """One flat all-reduce over every parameter, the unused ones' zeros too: right values,
    more bytes."""
    grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in model.parameters()]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for p, part in zip(model.parameters(), flat.split([g.numel() for g in grads]), strict=True):
        if p.grad is not None:
            p.grad.copy_(part.view_as(p))


def offsets_over_every_parameter(model):
    """Packs the gradients there are, but splits back at offsets counted over every
    parameter, the unused ones' too: slices shifted past one."""
    params = list(model.parameters())
    flat = torch.cat([p.grad.reshape(-1) for p in params if p.grad is not None])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:
        if p.grad is not None:
            part = flat[offset : offset + p.numel()]
            p.grad.view(-1)[: part.numel()].copy_(part)
        offset += p.numel()


@pytest.mark.parametrize(
    "answer, hint",
    [
        (
            offsets_over_every_parameter,
            "holds averages, but of other gradients, or of other places of its own: the flat "
            "tensor was split back in another order or at other offsets (the gradients that are "
            "None left out when packing but counted when splitting)",
        ),
        (min_op, "the minimum over ranks"),
        (with_a_barrier, "besides all-reduces your function called a barrier (step 0, rank 0)"),
        (
            zeros_for_the_unused,
            "your function all-reduced 700 bytes for 652 bytes of gradients (step 0, rank 0), 48 "
            "bytes more, in 1 all-reduce(s): its flat buffer holds more than the gradients (zeros "
            "in place of a parameter that has no gradient",
        ),
    ],
)
def test_allreduce_grads_more_mistakes_are_named(answer, hint):
    assert_fails("10.allreduce_grads", answer, hint)


def test_bus_bandwidth_in_float32_tensors_passes():
    """float32 arithmetic is off by up to 1e-7 of the value: within the checker's 1e-6."""

    def in_torch(nbytes, seconds, world_size, collective):
        if collective not in FACTORS:
            raise ValueError(f"collective must be one of {sorted(FACTORS)}, got {collective!r}")
        n = torch.tensor(float(world_size))
        algbw = torch.tensor(float(nbytes)) / torch.tensor(seconds) / 1e9
        factor = {"all_reduce": 2 * (n - 1) / n, "broadcast": torch.tensor(1.0)}
        return algbw, algbw * factor.get(collective, (n - 1) / n)

    assert_passes("10.bus_bandwidth", in_torch)
    _, busbw = in_torch(3 * 10**9, 1.7, 8, "all_reduce")
    assert not math.isclose(busbw.item(), 3 / 1.7 * 1.75, rel_tol=1e-9)  # float32 shows


def test_bus_bandwidth_names_the_first_case_whose_algbw_is_off():
    def off_at_four_ranks(nbytes, seconds, world_size, collective):
        alg, bus = bw_table(nbytes, seconds, world_size, collective)
        return (alg * 1.001, bus * 1.001) if world_size == 4 else (alg, bus)

    assert_fails(
        "10.bus_bandwidth",
        off_at_four_ranks,
        "algbw for 4096 bytes in 0.00073 s should be 0.00561096 GB/s, got 0.005616",
    )


# --- 10.allreduce_grads: red-team round 5 (answers in tests/redteam/10.allreduce_grads/) ---


def skips_zero_grads(model):
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # "nothing to average"
            continue
        dist.all_reduce(p.grad)
        p.grad /= dist.get_world_size()


def new_group_each_call(model):
    group = dist.new_group()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=group)
            p.grad /= dist.get_world_size(group)


_GROUP: list = []


def group_made_once(model):
    if not _GROUP:  # in each rank's process, at its first call
        _GROUP.append(dist.new_group())
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=_GROUP[0])
            p.grad /= dist.get_world_size(_GROUP[0])


def reduces_a_host_copy(model, to=lambda g: g.cpu()):
    for p in model.parameters():
        if p.grad is not None:
            g = to(p.grad)  # the same tensor on a CPU; a copy on a GPU, never written back
            dist.all_reduce(g)
            g /= dist.get_world_size()


def skips_biases_by_name(model):
    for name, p in model.named_parameters():
        if p.grad is not None and not name.endswith("bias"):
            dist.all_reduce(p.grad)
            p.grad /= dist.get_world_size()


def test_a_gradient_all_zero_on_one_rank_only_must_be_all_reduced_too():
    """At step 1 rank 0's share of the batch is zeros: its gradient of body.0.weight is all
    zero, rank 1's is not. Skipping it makes the ranks' collectives differ."""
    x, _ = _ranks.batch(1)
    assert not x[: _ranks.BATCH // 2].any() and x[_ranks.BATCH // 2 :].any()
    assert_fails(
        "10.allreduce_grads",
        skips_zero_grads,
        "their collective number 5 differs (rank 0: all_reduce [16] at step 1; rank 1: "
        "all_reduce [16, 6] at step 1). Every rank must call the same collectives whatever its "
        "gradients hold: at step 1 rank 0's share of the batch is zeros (padding), so its "
        "gradient of body.0.weight is all zero while the others' are not. Decide what to "
        "all-reduce from what every rank shares (p.grad is None), never from a gradient's "
        "values: an all-zero gradient is all-reduced too, and a test such as `if p.grad.any()` "
        "skips it on one rank only and reads every gradient back to the host (a sync per "
        "parameter)",
    )


def test_the_zero_step_advice_only_for_ranks_that_first_differ_at_that_step():
    from d2lgpu.checks._ch10_averaging import zero_step_advice

    at_1 = "their collective number 5 differs (rank 0: all_reduce [16] at step 1; rank 1: none)"
    assert "share of the batch is zeros" in zero_step_advice(at_1)
    assert zero_step_advice(at_1.replace("step 1", "step 0")) is None
    # the ranks already differ at step 0: not the zero step's doing
    assert (
        zero_step_advice(at_1.replace("rank 1: none", "rank 1: all_reduce [3] at step 0")) is None
    )
    assert zero_step_advice("their collective number 5 differs (rank 0: a; rank 1: b)") is None


def test_a_process_group_made_at_every_call_is_named_one_made_once_passes():
    assert_fails(
        "10.allreduce_grads",
        new_group_each_call,
        "your function created a new process group (dist.new_group) at each call, again at "
        "step 1 (rank 0): every rank takes part in setting up a group, a collective set-up at "
        "each step that costs more than the all-reduces. All-reduce over the default group "
        "(leave out group=), or make a group once, outside the function",
    )
    assert_passes("10.allreduce_grads", group_made_once)


@pytest.mark.parametrize(
    "to",
    [lambda g: g.cpu(), lambda g: g.to("cpu"), lambda g: g.detach().to(device=torch.device("cpu"))],
    ids=["cpu", "to_str", "to_device_kwarg"],
)
def test_an_all_reduce_of_a_host_copy_is_named_though_a_cpu_makes_it_the_same_tensor(to):
    assert_fails(
        "10.allreduce_grads",
        functools.partial(reduces_a_host_copy, to=to),
        "your function copied body.0.weight's gradient to the host (.cpu() or .to('cpu')) "
        "(step 0, rank 0): on a CPU that is the same tensor, on a GPU a copy, and an all-reduce "
        "of the copy leaves p.grad as it was (copied back, it costs two copies and a sync per "
        "gradient). All-reduce p.grad itself, in place, on its own device: NCCL and gloo both "
        "take GPU tensors",
    )


def test_host_copies_sees_only_gradients_going_to_the_host():
    from d2lgpu.checks._ch10_averaging import HostCopies
    from d2lgpu.checks._kit_collectives import Call

    model = torch.nn.Linear(2, 2)
    model(torch.ones(1, 2)).sum().backward()
    with HostCopies(model) as copies:
        model.weight.grad.to(torch.float64)  # a dtype, not the host
        model.weight.grad.clone().cpu()  # a copy's, not a gradient's
        (model.bias.grad * 2).to("cpu")
        # the keywords reach the call: a dtype given by name is applied
        assert model.weight.grad.to(dtype=torch.float64).dtype == torch.float64
    assert copies.copied is None
    with HostCopies(model) as copies:
        model.bias.grad.view(1, 2).to("cpu", torch.float64)
    assert copies.copied == "bias"
    for to_host in (lambda g: g.cpu(), lambda g: g.to(device="cpu")):
        with HostCopies(model) as copies:
            to_host(model.weight.grad)
            to_host(model.bias.grad)  # the first one is named
            (model.bias.grad * 2).cpu()  # not a gradient
        assert copies.copied == "weight"
    sent = Call(0, "all_reduce", (2,), 8, False, storages=(model.bias.grad.data_ptr(),))
    assert copies.uncarried([sent]) == ["weight"]


def test_a_gradient_no_collective_carried_is_named_never_all_reduced():
    assert_fails(
        "10.allreduce_grads",
        skips_biases_by_name,
        "body.0.bias's gradient on rank 0 (step 0) was never all-reduced: no collective "
        "carried it. All-reduce every gradient that is not None, weights and biases alike, then "
        "divide by the world size",
    )
    # sent in a flat buffer that is never copied back: carried, so the copy is what is named
    assert_fails("10.allreduce_grads", flat_not_copied_back, "copy the reduced values back")


def test_rules_on_records_name_a_sum_that_never_reached_the_gradient_and_a_stale_average():
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    ones, twos = torch.ones(2, 2), torch.full((2, 2), 2.0)
    with pytest.raises(Exception) as raised:  # divided by the world size, never summed
        _check_steps(_records([ones / 2, twos / 2]))
    assert str(raised.value) == (
        "w's gradient on rank 0 (step 0) is this rank's own gradient divided by the world "
        "size: the sum over the ranks never reached p.grad, as when another tensor is "
        "all-reduced (a copy: .float(), .to(another dtype), .clone(), .contiguous() of a "
        "gradient that is not; or torch.distributed.nn.functional.all_reduce's new tensor). "
        "dist.all_reduce(p.grad) sums p.grad itself, in place"
    )
    # step 0 right; at step 1 the ranks computed other gradients but got step 0's average
    records = _records([torch.full((2, 2), 1.5)] * 2)
    for r, record in enumerate(records):
        for step in record["steps"][1:]:
            step["local"] = {"w": torch.full((2, 2), 4.0 + 2 * r), "unused": None}
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value) == (
        "w's gradient on rank 0 (step 1) is the average of the step before: something kept "
        "between calls (a buffer filled once, a cache) was all-reduced instead of this step's "
        "gradients"
    )


def test_rules_on_records_name_a_loop_that_ended_at_the_first_unused_parameter():
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    ones = torch.ones(2, 2)
    records = _records([ones, ones * 2], calls=[])
    for record in records:
        for step in record["steps"]:  # the unused parameter first, as in the checker's Net
            step["local"] = {"unused": None, **step["local"]}
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value) == (
        "your function called no collective and left every gradient as it was (step 0, rank "
        "0). If it loops over model.parameters(): unused has no gradient (its layer is "
        "unused), and a loop that ends there (a `return` or `break` at the first p.grad that "
        "is None) averages nothing after it. Skip such a parameter with `continue` and go on "
        "to the next: all-reduce every other gradient, then divide by the world size"
    )
    # gradients changed without a collective (divided by the world size alone): not a loop
    # that ended, so the rule of what the gradient became names it
    halved = _records([ones / 2, ones], calls=[])
    for record in halved:
        for step in record["steps"]:
            step["local"] = {"unused": None, **step["local"]}
    with pytest.raises(Exception) as raised:
        _check_steps(halved)
    assert str(raised.value).startswith(
        "w's gradient on rank 0 (step 0) is this rank's own gradient divided by the world "
        "size: the sum over the ranks never reached p.grad"
    )
    # the same with the used parameter first: its own hint (never all-reduced, or not averaged)
    with pytest.raises(Exception, match="is not averaged"):
        _check_steps(_records([ones, ones * 2], calls=[]))
    # every gradient None: nothing to send, so not this rule (w then has one it should not)
    with pytest.raises(Exception, match="^w had no gradient"):
        _check_steps(
            [
                {"steps": [{**s, "local": {"unused": None, "w": None}} for s in r["steps"]]}
                for r in records
            ]
        )


def test_rules_on_records_name_an_all_gather_in_place_of_the_all_reduce():
    from d2lgpu.checks._ch10_averaging import check_cost as _check_cost
    from d2lgpu.checks._kit_collectives import Call

    mean = torch.full((2, 2), 1.5)
    with pytest.raises(Exception) as raised:
        _check_cost(_records([mean, mean], calls=[Call(0, "all_gather", (2, 2), 16, False)]))
    assert str(raised.value) == (
        "your function called an all_gather of shape (2, 2) (16 bytes) (step 0, rank 0) and no "
        "all-reduce: gathering every rank's gradient to average it yourself moves and holds "
        "world_size copies of it. dist.all_reduce(p.grad) sums it in place on every rank, with "
        "no copy; then divide by the world size"
    )


def test_a_failure_on_the_second_model_says_where_and_asks_what_was_kept():
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    ones = torch.ones(2, 2)
    records = _records([ones * 1.5, ones * 1.5])  # the first model's steps: averaged
    for r, record in enumerate(records):  # one more step, a second model's, never averaged
        twin = {**record["steps"][0], "calls": []}
        twin["local"] = {"unused": None, "w": ones * (r + 1)}
        twin["after"] = {"unused": None, "w": ones * (r + 1)}
        record["steps"].append(twin)
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value).startswith(
        f"on a second model, new in the same process after the first one's {_ranks.STEPS} "
        "steps: your function called no collective and left every gradient as it was (step 0, "
        "rank 0)."
    )
    assert str(raised.value).endswith(
        ". Every step of the first model passed, in float32; this one is float64, where "
        ".float() or .to(torch.float32) of a gradient is a copy. Or does your function keep its "
        "parameters, or anything else, from the first model it saw (a default argument, a "
        "global)? Read model.parameters() in every call"
    )
    # a parameter of the model's own, missed: named, without asking what was kept
    for r, record in enumerate(records):
        twin = record["steps"][-1]
        twin["local"] = {"scale": ones * (r + 1), "w": ones * (r + 1)}
        twin["after"] = {"scale": ones * (r + 1), "w": ones * 1.5}
        twin["uncarried"] = ["scale"]
        twin["calls"] = records[0]["steps"][0]["calls"]
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value) == (
        f"on a second model, new in the same process after the first one's {_ranks.STEPS} "
        "steps: scale's gradient on rank 0 (step 0) was never all-reduced: no collective "
        "carried it. scale is a parameter of the model itself, in no child module, which a "
        "loop over model.children() misses: loop over model.parameters(). All-reduce every "
        "gradient that is not None, weights and biases alike, then divide by the world size"
    )


def test_rules_on_records_name_a_double_all_reduce_a_lower_precision_and_which_steps_passed():
    from d2lgpu.checks._kit_collectives import Call
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    mean, total = torch.full((2, 2), 1.5), torch.full((2, 2), 3.0)
    reduce = Call(0, "all_reduce", (2, 2), 16, False)

    def hint(records):
        with pytest.raises(Exception) as raised:
            _check_steps(records)
        return str(raised.value)

    # a sum, after twice the gradients' bytes were all-reduced: the second all-reduce named
    assert hint(_records([total, total], calls=[reduce, reduce])) == (
        "w's gradient on rank 0 (step 0) is summed, not averaged, and every gradient was "
        "all-reduced twice: an all-reduce after the division sums the averages again. "
        "All-reduce once, then divide by dist.get_world_size()"
    )
    # once is not twice: 24 bytes for 16 is a plain sum's hint
    partial = Call(0, "all_reduce", (2,), 8, False)
    assert hint(_records([total, total], calls=[reduce, partial])).endswith(
        "is summed, not averaged: divide by dist.get_world_size() after the all_reduce"
    )
    # right to about 3 digits (bfloat16 on the way), at step 0: no earlier step to point at
    rounded = mean * (1 + 2e-3)
    assert hint(_records([rounded, rounded])) == (
        "w's gradient on rank 0 (step 0) is the average only to about 3 digits (largest "
        "difference 0.003): precision was lost on the way, as when the gradients are sent or "
        "copied in a lower precision (bfloat16, float16). All-reduce them in their own dtype"
    )
    # right at step 0, then off at step 1, or right at steps 0 and 1, then off at step 2
    kept = (
        "so look for what your function keeps between calls (a buffer, a list of p.grad "
        "tensors: zero_grad sets p.grad to None and backward makes new ones)"
    )
    for wrong_from, passed in ((1, "at step 0 it was right"), (2, "at steps 0 to 1 it was right")):
        records = _records([mean, mean])
        for record in records:
            for step in record["steps"][wrong_from:]:
                step["after"] = {"w": mean * 2, "unused": None}
        assert hint(records) == (
            f"w's gradient on rank 0 (step {wrong_from}) is summed, not averaged: divide by "
            f"dist.get_world_size() after the all_reduce; {passed}, {kept}"
        )
        for record in records:  # off by a little: the precision hint points at them too
            for step in record["steps"][wrong_from:]:
                step["after"] = {"w": rounded, "unused": None}
        assert hint(records).endswith(f"in their own dtype; {passed}, {kept}")


def test_rules_on_records_name_a_loop_that_ended_after_sending_what_came_before():
    from d2lgpu.checks._kit_collectives import Call
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    ones, mean = torch.ones(2, 2), torch.full((2, 2), 1.5)
    # `first` all-reduced (16 bytes), then the loop stopped at `unused`: `w` never carried
    records = _records([mean, mean], calls=[Call(0, "all_reduce", (2, 2), 16, False)])
    for r, record in enumerate(records):
        for step in record["steps"]:
            step["local"] = {"first": ones * (r + 1), "unused": None, "w": ones * (r + 1)}
            step["after"] = {"first": mean, "unused": None, "w": ones * (r + 1)}
            step["uncarried"] = ["w"]
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value).startswith(
        "your function left every gradient after unused as it was (step 0, rank 0). If it "
        "loops over model.parameters(): unused has no gradient"
    )
    # the same values, but w was carried (its bytes sent in a flat buffer never copied back)
    for record in records:
        for step in record["steps"]:
            step["calls"] = [Call(0, "all_reduce", (8,), 32, False)]
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value).startswith(
        "w's gradient on rank 0 (step 0) is not averaged (still this rank's own gradient)"
    )
    # a collective was called (a barrier), and every gradient left as it was: not "no collective"
    for record in records:
        for step in record["steps"]:
            step["after"] = dict(step["local"])
            step["calls"] = [Call(0, "barrier", (), 0, False)]
            step["uncarried"] = ["first", "w"]
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value).startswith(
        "your function left every gradient after unused as it was (step 0, rank 0)."
    )


def test_rules_on_records_name_all_reduces_of_copies_of_every_gradient():
    """Round 24: p.grad.float() of a float64 gradient all-reduced, never copied back."""
    from d2lgpu.checks._kit_collectives import Call
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    ones, mean = torch.ones(2, 2, dtype=torch.float64), torch.full((2, 2), 1.5)
    copy = Call(0, "all_reduce", (2, 2), 16, False)  # float32: half the gradient's bytes
    records = _records([mean, mean], calls=[copy, copy])
    for r, record in enumerate(records):
        for step in record["steps"]:
            step["local"] = {"unused": None, "first": ones * (r + 1), "w": ones * (r + 1)}
            step["after"] = dict(step["local"])
            step["uncarried"] = ["first", "w"]
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value) == (
        "your function all-reduced tensors of the gradients' shapes, but not the gradients "
        "(step 0, rank 0): each was a copy, and the sums never reached p.grad. The gradients "
        "here are float64: .float(), .to(...) or .clone() of one is a new tensor. All-reduce "
        "p.grad itself, in place, or copy the result back into it"
    )
    for record in records:  # one all-reduce fewer than gradients: a loop that stopped
        for step in record["steps"]:
            step["calls"] = [copy]
    with pytest.raises(Exception) as raised:
        _check_steps(records)
    assert str(raised.value).startswith("your function left every gradient after unused")


def test_rules_on_records_name_divisions_that_did_not_reach_every_gradient_once():
    """Round 24: a `then` callback's lambda reading the loop variable late, or a division
    after the loop: the last gradient divided, the others left sums."""
    from d2lgpu.checks._ch10_averaging import misplaced_divisions_hint

    a, b, c = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([5.0])

    def steps(after):
        ranks = [{"a": a, "b": b, "c": c}, {"a": 3 * a, "b": 3 * b, "c": 3 * c}]
        return [{"local": {"unused": None, **g}, "after": {"unused": None, **after}} for g in ranks]

    total = {"a": 4 * a, "b": 4 * b, "c": 4 * c}
    assert misplaced_divisions_hint(steps({**total, "c": total["c"] / 4}), 2) == (
        "the divisions by the world size did not reach every gradient once (step 2, rank 0): "
        "a, b stayed the sum over the ranks, and c 2 times divided. A division after the loop "
        "reaches only its last gradient; a callback or lambda made in a loop reads the loop "
        "variable when it runs, not when it was made (a late-bound closure: bind it when made, "
        "lambda fut, g=p.grad: g.div_(n)). Divide each gradient once, inside the loop or after "
        "the waits"
    )
    said = misplaced_divisions_hint(steps({**total, "a": total["a"] / 2}), 0)
    assert "b, c stayed the sum over the ranks, and a 1 time divided." in said
    averaged = {n: t / 2 for n, t in total.items()}
    assert misplaced_divisions_hint(steps(averaged), 0) is None  # each divided once: right
    assert misplaced_divisions_hint(steps(total), 0) is None  # none divided: "summed" says it
    assert misplaced_divisions_hint(steps({**averaged, "a": a}), 0) is None  # a is no sum
    assert misplaced_divisions_hint(steps({**total, "a": torch.ones(3)}), 0) is None  # a shape


def test_misplaced_divisions_are_judged_on_each_rank_and_with_two_gradients_or_more():
    """The edges of the rule above: two gradients are enough; a later rank is read too; every
    divided gradient is listed; a division too many for the count of gradients is no
    division; sums within float32's rounding still count."""
    from d2lgpu.checks._ch10_averaging import misplaced_divisions_hint

    def record(local, after):
        return {"local": local, "after": after}

    a, b, c = torch.tensor([1.0, 2.0]), torch.tensor([3.0]), torch.tensor([0.0, 5.0])
    two = [record({"a": a, "b": b}, {"a": 2 * a, "b": b})] * 2  # b divided once, a the sum
    assert "a stayed the sum over the ranks, and b 1 time divided" in misplaced_divisions_hint(
        two, 1
    )
    local = {"a": a, "b": b, "c": c}
    right = {"a": a, "b": b, "c": c}  # each the sum (2 a) divided once
    late = {"a": 2 * a, "b": b, "c": c}  # a the sum, b and c divided once
    said = misplaced_divisions_hint([record(local, right), record(local, late)], 3)
    assert said.startswith(
        "the divisions by the world size did not reach every gradient once (step 3, rank 1): a "
        "stayed the sum over the ranks, and b 1 time, c 1 time divided."
    )
    too_many = {"a": 2 * a, "b": 2 * b, "c": 2 * c / 2**4}  # c divided 4 times, of 3 gradients
    assert misplaced_divisions_hint([record(local, too_many)] * 2, 0) is None
    rounded = {"a": 2 * a, "b": b * (1 + 2e-6), "c": c + torch.tensor([5e-8, 0.0])}
    said = misplaced_divisions_hint([record(local, rounded)] * 2, 0)
    assert "and b 1 time, c 1 time divided." in said


def test_rules_on_records_name_a_flat_buffer_that_carries_more_than_the_gradients():
    """Round 25: zeros in the flat buffer for a parameter that has no gradient."""
    from d2lgpu.checks._ch10_averaging import check_cost as _check_cost
    from d2lgpu.checks._kit_collectives import Call

    mean = torch.full((2, 2), 1.5)
    records = _records([mean, mean], calls=[Call(0, "all_reduce", (10,), 40, False)])
    for record in records:
        for s in record["steps"]:
            s["local"] = {**s["local"], "v": torch.ones(4)}  # two gradients: 32 bytes
    with pytest.raises(Exception) as raised:
        _check_cost(records)
    assert str(raised.value) == (
        "your function all-reduced 40 bytes for 32 bytes of gradients (step 0, rank 0), 8 "
        "bytes more, in 1 all-reduce(s): its flat buffer holds more than the gradients (zeros "
        "in place of a parameter that has no gradient, padding, a buffer). Put in it only the "
        "gradients that are not None"
    )
    for record in records:  # as many all-reduces as gradients: one of them sent twice
        for s in record["steps"]:
            s["calls"] = [
                Call(0, "all_reduce", (4,), 16, False),
                Call(1, "all_reduce", (6,), 24, False),
            ]
    with pytest.raises(Exception) as raised:
        _check_cost(records)
    assert "in 2 all-reduces: an extra collective" in str(raised.value)


def test_rules_on_records_name_buffers_a_narrower_flat_buffer_host_reads_and_hooks():
    """Round 21: a buffer all-reduced, a float32 flat buffer for float64 gradients, a host
    read of a gradient's value, and collectives run in backward by hooks of an earlier call."""
    from d2lgpu.checks._ch10_averaging import check_cost as _check_cost
    from d2lgpu.checks._kit_collectives import Call
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    mean = torch.full((2, 2), 1.5)
    reduce = Call(0, "all_reduce", (2, 2), 16, False)

    def hint(check, **step):
        records = _records([mean, mean], calls=[reduce])
        for record in records:
            for s in record["steps"]:
                s.update(step)
        with pytest.raises(Exception) as raised:
            check(records)
        return str(raised.value)

    assert hint(_check_cost, buffers_sent=["shift"]) == (
        "your function all-reduced the model's buffer shift (step 0, rank 0): an extra "
        "collective, and a buffer changed that is no gradient. Average only the parameters' "
        "p.grad; buffers (BatchNorm's running statistics) are left alone"
    )
    assert hint(_check_cost, calls=[Call(0, "all_reduce", (4,), 8, False)]) == (
        "your function all-reduced 8 bytes for 16 bytes of gradients (step 0, rank 0): a flat "
        "buffer in a narrower dtype than the gradients' (torch.zeros(n) is float32; this model "
        "is float64) rounds them. Make it in the gradients' own dtype (torch.cat, or "
        "torch.zeros(n, dtype=g.dtype)), one buffer per dtype"
    )
    # each element once, in float64 (a .double() copy): a wider dtype, not an extra collective
    for wide in (
        [Call(0, "all_reduce", (2, 2), 32, False)],
        [Call(0, "all_reduce", (4,), 32, False)],
    ):
        assert hint(_check_cost, calls=wide) == (
            "your function all-reduced 32 bytes for 16 bytes of gradients (step 0, rank 0), each "
            "element once: in a wider dtype than the gradients' (a copy .double() or "
            ".to(torch.float64) of a float32 gradient), which sends more bytes for no more "
            "precision in the average. All-reduce each gradient in its own dtype, p.grad itself"
        )
    assert "an extra collective" in hint(_check_cost, calls=[reduce, reduce])
    assert hint(_check_cost, host_read="bool()") == (
        "your function read a tensor's value on the host (bool(), as `if not "
        "torch.isfinite(g).all():` does) (step 0, rank 0): on a GPU each read is a sync, the "
        "host waits for the device (and no more work is queued meanwhile). Send the gradients "
        "without looking at their values"
    )
    said = hint(_check_steps, in_backward=2)
    assert "during backward" in said and "register_post_accumulate_grad_hook" in said
    assert "state kept between calls" in said
    said = hint(_check_cost, calls=[reduce, reduce])
    assert "state_dict()" in said and "shared by two layers" in said


def test_host_copies_sees_host_reads_and_buffers_sent():
    from d2lgpu.checks._ch10_averaging import HostCopies
    from d2lgpu.checks._kit_collectives import Call

    model = torch.nn.BatchNorm1d(2)
    model(torch.randn(3, 2)).sum().backward()
    with HostCopies(model) as copies:
        model.weight.grad.numel()  # no read of a value
    assert copies.read is None
    with HostCopies(model) as copies:
        if not torch.isfinite(model.weight.grad).all():
            pass
    assert copies.read == "bool()"
    mean = model.running_mean
    sent = Call(0, "all_reduce", (2,), 8, False, storages=(mean.untyped_storage().data_ptr(),))
    assert copies.buffers_sent([sent]) == ["running_mean"]


def test_a_reduce_to_one_rank_is_named_where_the_other_ranks_gradients_are_wrong():
    from d2lgpu.checks._ch10_averaging import check_cost as _check_cost
    from d2lgpu.checks._kit_collectives import Call
    from d2lgpu.checks.ch10_inside_ddp import _check_steps

    reduce = [Call(0, "reduce", (2, 2), 16, False)]
    mean, garbage = torch.full((2, 2), 1.5), torch.full((2, 2), 7.0)
    with pytest.raises(Exception) as raised:  # rank 0 right, rank 1 holds what reduce left
        _check_steps(_records([mean, garbage], calls=reduce))
    assert str(raised.value) == (
        "w's gradient on rank 1 (step 0) is not the average over the ranks (largest difference "
        "5.5): each p.grad must end as the sum over ranks divided by the world size: your "
        "function called a reduce of shape (2, 2) (16 bytes): dist.reduce leaves the sum on its "
        "dst rank alone, and the other ranks' tensors hold whatever the reduction left in them. "
        "dist.all_reduce leaves the same sum on every rank"
    )
    with pytest.raises(Exception) as raised:  # right values but no all-reduce: the cost rule
        _check_cost(_records([mean, mean], calls=reduce))
    assert str(raised.value).startswith(
        "your function called a reduce of shape (2, 2) (16 bytes) (step 0, rank 0) and no "
        "all-reduce: dist.reduce leaves the sum on its dst rank alone"
    )
    with pytest.raises(Exception) as raised:  # with all-reduces, a wrong value keeps its words
        _check_steps(_records([mean, garbage]))
    assert str(raised.value).endswith("divided by the world size")
    # a reduce, then a broadcast back: right values, one collective too many
    both = [*reduce, Call(1, "broadcast", (2, 2), 16, False)]
    with pytest.raises(Exception) as raised:
        _check_cost(_records([mean, mean], calls=both))
    assert str(raised.value) == (
        "your function called a reduce of shape (2, 2) (16 bytes) (step 0, rank 0) and no "
        "all-reduce: a reduce to one rank, then a broadcast from it, is two collectives where "
        "one does the work: dist.all_reduce leaves the same sum on every rank at once; then "
        "divide by the world size"
    )


def test_a_collective_that_neither_reduces_nor_gathers_is_named_with_what_all_reduce_does():
    from d2lgpu.checks._ch10_averaging import not_all_reduce
    from d2lgpu.checks._kit_collectives import Call

    broadcast = [Call(0, "all_reduce", (2,), 8, False), Call(1, "broadcast", (2, 2), 16, False)]
    assert not_all_reduce(broadcast, "(step 0, rank 1)") == (
        "your function called a broadcast of shape (2, 2) (16 bytes) (step 0, rank 1): only "
        "dist.all_reduce leaves the same sum on every rank"
    )
    assert not_all_reduce(broadcast[:1]) == ""  # all-reduces alone: nothing to name


def test_a_gradients_comparison_holds_its_two_tolerances_and_a_broadcast_is_rank_0s():
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.checks.ch10_inside_ddp import _broadcast, _compare_grad

    local = [torch.tensor([1.0, -2.0, 0.0]), torch.tensor([3.0, 4.0, 0.0])]
    mean = (local[0] + local[1]) / 2  # [2, 1, 0]: relative error on the first two, absolute on 0

    def said(got, **kwargs):
        try:
            _compare_grad("w", got, local, 0, 2, 0, **kwargs)
        except CheckFailed as failed:
            return failed.hint
        return None

    assert said(mean) is None
    assert said(mean * (1 + 5e-6) + torch.tensor([0.0, 0.0, 5e-8])) is None
    for off in (mean * (1 + 5e-5), mean + torch.tensor([0.0, 0.0, 5e-7])):
        assert said(off).startswith("w's gradient on rank 0 (step 0) is the average only to"), off
    close = mean * (1 + 2e-3)  # lost in a lower precision: within 1e-2, not within 1e-5
    assert "is the average only to about 3 digits" in said(close)
    near_zero = mean + torch.tensor([0.0, 0.0, 5e-5])  # within 1e-2's 1e-4, not within 1e-7
    assert "is the average only to about 3 digits" in said(near_zero)
    for far in (mean + torch.tensor([0.0, 0.0, 5e-4]), mean * 1.05):
        assert said(far).startswith("w's gradient on rank 0 (step 0) is not the average over"), far
    assert said(local[0] + local[1]) == (
        "w's gradient on rank 0 (step 0) is summed, not averaged: divide by "
        "dist.get_world_size() after the all_reduce"
    )  # ``twice`` only where the call all-reduced the gradients' bytes twice
    assert said(local[0] + local[1], twice=True).startswith(
        "w's gradient on rank 0 (step 0) is summed, not averaged, and every gradient was "
        "all-reduced twice"
    )
    assert _broadcast(local, [local[0], local[0].clone()])
    assert _broadcast(local, [local[0] * (1 + 5e-6), local[0]])
    assert _broadcast(local, [local[0] + torch.tensor([0.0, 0.0, 5e-8]), local[0]])
    assert not _broadcast(local, [local[1], local[1].clone()])  # rank 1's everywhere
    assert not _broadcast(local, [local[0] * (1 + 5e-5), local[0]])
    assert not _broadcast(local, [local[0] + torch.tensor([0.0, 0.0, 5e-7]), local[0]])


_LOG: dict = {}  # the model whose calls are logged, and the log


def logs_each_model_afresh(model):
    """Averages right, and keeps a copy of every call's gradients, cleared for a new model:
    the first model's log grows at each of its steps."""
    if _LOG.get("model") is not model:
        _LOG.update(model=model, log=[])
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= dist.get_world_size()
    _LOG["log"].append(
        torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])
    )


def test_a_log_that_grows_with_each_step_of_the_first_model_is_named_though_a_new_one_clears_it():
    assert_fails(
        "10.allreduce_grads",
        logs_each_model_afresh,
        "what your function keeps grows at every call: after each of the first 3 steps rank 0",
    )


def tries_a_thread_first(model):
    """All-reduces from a thread of its own first (refused there, the thread's error lost),
    then does it right on the caller's thread: the refused call is still named."""
    import threading

    def in_the_background():
        try:
            dist.all_reduce(next(p.grad for p in model.parameters() if p.grad is not None))
        except Exception:  # "fall back to the caller's thread below"
            pass

    worker = threading.Thread(target=in_the_background)
    worker.start()
    worker.join()
    avg_loop(model)


def test_a_collective_refused_on_a_thread_of_the_answers_own_is_named_though_it_caught_it():
    assert_fails("10.allreduce_grads", tries_a_thread_first, "was called from a thread of your own")


def test_a_name_left_unchecked_after_a_call_on_the_same_world_size_is_named_as_kept():
    # the factor is worked out (and the name checked) only when world_size changes: the
    # unknown name on 1 rank, right after the 1-rank all_reduce, is never checked
    from d2lgpu.checks._ch10_bandwidth import FACTORS as RULES

    last = {"n": None, "factor": None}

    def kept_per_world_size(nbytes, seconds, world_size, collective):
        if world_size != last["n"]:  # the name checked only where the world size changes
            if collective not in RULES:
                raise ValueError(collective)
            last["n"] = world_size
        alg = nbytes / seconds / 1e9
        return alg, alg * RULES.get(collective, lambda n: 1.0)(world_size)

    hint = assert_fails("10.bus_bandwidth", kept_per_world_size, "raised it when called").hint
    assert hint.startswith(
        "bandwidths(..., 'all_to_everyone') returned instead of raising ValueError, and raised "
        "it when called again after a call on 11 ranks: whether your function checks the name "
        "depends on earlier calls"
    ), hint

    def shortcut_for_one_rank(nbytes, seconds, world_size, collective):  # the same every call
        if world_size == 1:
            alg = nbytes / seconds / 1e9
            return alg, alg if collective == "broadcast" else 0.0
        return bw_table(nbytes, seconds, world_size, collective)

    hint = assert_fails("10.bus_bandwidth", shortcut_for_one_rank, "before any shortcut").hint
    assert "depends on earlier calls" not in hint, hint


def test_only_a_call_made_to_raise_by_the_call_between_counts_as_depending_on_it():
    from d2lgpu.checks._ch10_bandwidth import FACTORS
    from d2lgpu.checks._ch10_bandwidth_edges import _raises_after_another_call

    seen = []

    def checks_once_eleven_was_seen(nbytes, seconds, world_size, collective):
        seen.append(world_size)
        if 11 in seen and collective not in FACTORS:
            raise ValueError(collective)
        return 1.0, 1.0

    assert _raises_after_another_call(checks_once_eleven_was_seen, 1, "all_to_everyone")
    assert seen == [11, 1]

    def never_raises(nbytes, seconds, world_size, collective):
        return 1.0, 1.0

    def refuses_eleven(nbytes, seconds, world_size, collective):  # the call between raises
        if world_size == 11:
            raise RuntimeError("only up to 8 ranks")
        raise ValueError(collective)

    def then_raises_another_error(nbytes, seconds, world_size, collective):
        if world_size == 1:
            raise KeyError(collective)
        return 1.0, 1.0

    for answer in (never_raises, refuses_eleven, then_raises_another_error):
        assert not _raises_after_another_call(answer, 1, "all_to_everyone"), answer.__name__


def test_a_factor_of_one_at_one_world_size_is_a_wrong_factor_not_one_kept():
    # all_reduce's factor at 4 ranks is 1.5: a busbw equal to algbw at 4 ranks is not its
    from d2lgpu.checks._ch10_bandwidth import FACTORS

    def one_at_four(nbytes, seconds, world_size, collective):
        alg = nbytes / seconds / 1e9
        if collective == "all_gather" and world_size == 4:
            return alg, alg  # a slip at one world size: busbw taken as algbw
        return alg, alg * FACTORS[collective](world_size)

    hint = assert_fails("10.bus_bandwidth", one_at_four, "(algbw x 0.75)").hint
    assert hint.startswith("busbw of all_gather for 4096 bytes, 0.00073 s, 4 ranks should be"), hint
    assert "returned earlier" not in hint, hint


def test_bus_bandwidth_names_a_name_compared_with_is_and_an_allocation_per_call():
    # round 62: the name arrives built at run time, as a loop or a file gives it; the formula
    # allocates nothing
    def compared_with_is(nbytes, seconds, world_size, collective):
        for name in FACTORS:
            if collective is name:
                return bw_table(nbytes, seconds, world_size, name)
        raise ValueError(f"unknown collective {collective!r}")

    hint = assert_fails("10.bus_bandwidth", compared_with_is).hint
    assert hint == (
        "bandwidths(1048576, 0.001, 2, 'all_reduce') raised ValueError (unknown collective "
        "'all_reduce') for 'all_reduce' built at run time (joined, read from a file), and "
        "returned for the literal 'all_reduce': a name compared with `is` is the same object "
        "only by chance (a literal is interned). Compare names with ==, or look them up in a dict"
    ), hint

    def counted_in_a_buffer(nbytes, seconds, world_size, collective):
        buffer = torch.empty(int(nbytes), dtype=torch.uint8)
        return bw_table(buffer.numel(), seconds, world_size, collective)

    hint = assert_fails("10.bus_bandwidth", counted_in_a_buffer).hint
    assert hint.startswith(
        "bandwidths(1048576, 0.001, 2, 'all_reduce') allocated 1,048,576 bytes (empty): the two "
        "numbers need only nbytes, seconds and world_size"
    ), hint

    def three_buffers(nbytes, seconds, world_size, collective):  # the largest is named
        kept = [torch.empty(2**20, dtype=torch.uint8), torch.empty(3 * 2**20, dtype=torch.uint8)]
        kept.append(bytearray(2**21))
        return bw_table(nbytes, seconds, world_size, collective)

    hint = assert_fails("10.bus_bandwidth", three_buffers).hint
    assert "allocated 3,145,728 bytes (empty)" in hint, hint

    def a_bytearray(nbytes, seconds, world_size, collective):  # round 65's w07
        return bw_table(memoryview(bytearray(int(nbytes))).nbytes, seconds, world_size, collective)

    hint = assert_fails("10.bus_bandwidth", a_bytearray).hint
    assert hint.startswith(
        "bandwidths(1048576, 0.001, 2, 'all_reduce') allocated about 1.0 MiB (Python objects: a "
        "bytearray, bytes, a list): the two numbers"
    ), hint

    # a ValueError of the answer's own for a name that is one of the four stays its error
    def refuses_reduce_scatter(nbytes, seconds, world_size, collective):
        if collective == "reduce_scatter":
            raise ValueError("not supported")
        return bw_table(nbytes, seconds, world_size, collective)

    result = check("10.bus_bandwidth", refuses_reduce_scatter)
    assert result.status == "failed" and "is` is the same object" not in result.hint, result
