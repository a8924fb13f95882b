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


@pytest.mark.parametrize("answer", [avg_loop, avg_async])
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
        (copied_back_transposed, "is not the average over the ranks"),
        (summed, "summed, not averaged"),
        (only_weights, "body.0.bias's gradient on rank 0 (step 0) is not averaged"),
        (max_op, "the maximum over ranks"),
        (no_skip, "skip them"),
        (reduces_data, "not p, p.data or a copy"),
        (sums_data, "average p.grad, not p"),
        (flat_not_copied_back, "copy the reduced values back"),
        (divides_twice, "divided by the world size twice"),
        (broadcasts, "not averaged"),
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
    from d2lgpu.checks._kit_collectives import first_mismatch

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
        h = [dist.all_reduce(torch.ones(3), async_op=True) for _ in range(5)]
        h[0].wait()
        h[1].get_future().wait()
        torch.futures.wait_all([h[2].get_future()])
        torch.futures.collect_all([h[3].get_future()]).wait()
        dist.broadcast(torch.ones(2), src=0)
    restored = dist.all_reduce is original
    return [c.waits for c in watch.calls], [c.kind for c in watch.calls], restored


def test_the_watch_counts_every_way_to_wait_and_puts_the_collectives_back():
    from d2lgpu.ranks import run_ranks

    waits, kinds, restored = run_ranks(_waits_seen, world=1)[0]
    assert waits == [1, 1, 1, 1, 0, 0], waits  # the fifth handle was never waited on
    assert kinds == ["all_reduce"] * 5 + ["broadcast"] and restored


def test_a_factor_written_in_for_two_ranks_is_told_from_an_integer_division():
    from d2lgpu.checks.ch10_inside_ddp import _fixed_for_two_ranks

    two = {"all_reduce": 1.0, "all_gather": 0.5, "reduce_scatter": 0.5, "broadcast": 1.0}

    def fixed(nbytes, seconds, n, collective):
        alg = nbytes / seconds / 1e9
        return alg, alg * two[collective]

    def integer(nbytes, seconds, n, collective):
        alg = nbytes / seconds / 1e9
        factor = {"all_reduce": 2 * (n - 1) // n, "broadcast": 1}.get(collective, (n - 1) // n)
        return alg, alg * factor

    assert "Written in for 2 ranks" in _fixed_for_two_ranks(fixed)
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
