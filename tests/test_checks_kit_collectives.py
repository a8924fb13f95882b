"""The checkers' watch on a rank's collectives (d2lgpu/checks/_kit_collectives.py), run here in
pytest's own process under PyTorch's fake process group (its collectives move nothing), so
that what a rank records can be read call by call: kinds, shapes, bytes, reductions, roots,
groups and storages; the handles, futures and their waits; an async call held back until its
wait; and the functions it replaces, put back. The parent's readers of the records are tested
with the checkers that use them (test_checks_ranks.py, test_checks_ch10*.py)."""

import contextlib

import pytest
import torch
import torch.distributed as dist

from d2lgpu._fake_dist import fake_process_group
from d2lgpu.checks._kit_collective_handles import WatchedFuture, WatchedHandle
from d2lgpu.checks._kit_collective_reads import first_mismatch, unwaited_hint
from d2lgpu.checks._kit_collectives import (
    Call,
    CollectiveWatch,
    describe,
)
from d2lgpu.checks._util import CheckFailed


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """torch on one thread: a thread pool in pytest's process hangs a mutation run's forks."""


@pytest.fixture
def watch(tmp_path):
    """Rank 0 of 2 under the fake process group, its collectives watched and logged."""
    notes = []
    with fake_process_group(2, 0):
        with CollectiveWatch(
            str(tmp_path / "rank0"), note=lambda e, c: notes.append((e, c.index))
        ) as w:
            w.notes = notes
            yield w


def test_each_call_is_recorded_with_its_kind_shape_bytes_reduction_and_root(watch, tmp_path):
    t = torch.ones(4, 2)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    watch.phase = "in backward"
    dist.broadcast(t[1], src=1)  # a view: its storage is t's
    dist.reduce(t, dst=1, op=dist.ReduceOp.PRODUCT)
    watch.phase = ""
    dist.all_gather([torch.zeros(3), torch.zeros(3)], torch.ones(3))
    dist.reduce_scatter(torch.zeros(2), [torch.ones(2), torch.ones(2)], op=dist.ReduceOp.MIN)
    dist.barrier()
    dist.all_gather_object([None, None], {"a": 1})
    calls = watch.calls
    assert [(c.index, c.kind, c.shape, c.nbytes, c.async_op) for c in calls] == [
        (0, "all_reduce", (4, 2), 32, False),
        (1, "broadcast", (2,), 8, False),
        (2, "reduce", (4, 2), 32, False),
        (3, "all_gather", (3,), 12, False),
        (4, "reduce_scatter", (2, 2), 16, False),  # a list: its length, then each tensor's shape
        (5, "barrier", (), 0, False),
        (6, "all_gather_object", (), 0, False),
    ]
    assert [c.op for c in calls] == ["MAX", None, "PRODUCT", None, "MIN", None, None]
    assert [c.root for c in calls] == ["", "from rank 1", "to rank 1", "", "", "", ""]
    assert [c.phase for c in calls] == ["", "in backward", "in backward", "", "", "", ""]
    assert calls[0].storages == calls[1].storages == (t.untyped_storage().data_ptr(),)
    assert len(calls[4].storages) == 2 and calls[5].storages == ()
    assert all(c.group is None and c.waits == 0 and c.held is None for c in calls)
    assert (tmp_path / "rank0").read_text().splitlines() == [c.key() for c in calls]
    assert calls[1].key() == "broadcast [2] from rank 1 in backward"
    assert watch.notes == [("launch", i) for i in range(7)]
    assert [describe(c) for c in calls[4:]] == [
        "a reduce_scatter of shape (2, 2) (16 bytes)",
        "a barrier",
        "an all_gather_object",
    ]


def test_every_reduction_is_named_and_another_is_shown_as_torch_prints_it(watch):
    for op in ("SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND"):
        try:
            dist.all_reduce(torch.ones(1), op=getattr(dist.ReduceOp, op))
        except (RuntimeError, ValueError):  # a reduction the fake group refuses is still recorded
            pass
    names = [c.op for c in watch.calls]
    assert names[:5] == ["SUM", "AVG", "PRODUCT", "MIN", "MAX"]
    assert names[5] == str(dist.ReduceOp.BAND) and names[5] not in names[:5]


def test_an_empty_list_and_what_is_no_tensor_send_nothing(watch):
    dist.all_gather_object([None, None], [1, 2])
    # torch 2.14's fake group refuses it, 2.11's does not: recorded all the same, first
    with contextlib.suppress(RuntimeError):
        dist.all_to_all([torch.zeros(1), torch.zeros(1)], [])
    assert [(c.kind, c.shape, c.nbytes) for c in watch.calls] == [
        ("all_gather_object", (), 0),
        ("all_to_all", (0,), 0),  # an empty list of tensors: no element, no byte
    ]


def test_groups_made_are_counted_and_a_call_over_a_subgroup_names_its_ranks(watch):
    assert watch.groups_made == 0
    sub = dist.new_group([0])
    whole = dist.new_group([0, 1])
    assert watch.groups_made == 2
    dist.all_reduce(torch.ones(2), group=sub)
    dist.all_reduce(torch.ones(2), group=whole)  # every rank: read as the world
    dist.all_reduce(torch.ones(2), group=dist.group.WORLD)
    dist.all_reduce(torch.ones(2), group=dist.GroupMember.NON_GROUP_MEMBER)
    assert [c.group for c in watch.calls] == [(0,), None, None, ()]


def test_an_async_call_runs_on_a_copy_until_its_handle_is_waited_on(watch):
    t = torch.ones(3)
    handle = dist.all_reduce(t, async_op=True)
    call = watch.calls[0]
    assert call.async_op and watch.unwaited() == [call]
    held, copy, launched = call.held
    assert held is t and copy is not t and torch.equal(copy, t) and torch.equal(launched, t)
    copy.add_(1)  # what the collective reached: the rank's tensor does not show it yet
    assert torch.equal(t, torch.ones(3))
    handle.wait()
    assert torch.equal(t, torch.full((3,), 2.0)) and call.held is None and call.waits == 1
    assert watch.unwaited() == [] and watch.notes == [("launch", 0), ("wait", 0)]
    handle.wait()  # a second wait counts, and copies nothing again
    assert call.waits == 2 and torch.equal(t, torch.full((3,), 2.0))
    assert handle.is_completed() in (True, False)  # the real handle's own answer, passed on
    assert not call.written  # read before the wait, never written


def test_the_copies_an_async_call_runs_on_are_the_watchs_own_not_the_answers(watch):
    # gloo's thread may hold the copy a while after the wait: a tensor the answer's call
    # seems to keep, which must not count as the answer's (10.allreduce_grads' growth rule)
    t = torch.ones(3)
    handle = dist.all_reduce(t, async_op=True)
    _, copy, launched = watch.calls[0].held
    assert watch.owns(copy) and watch.owns(launched)
    assert not watch.owns(t) and not watch.owns(copy.clone()) and not watch.owns(None)
    handle.wait()
    assert watch.owns(copy)  # still, while anything holds it
    dist.all_reduce(t)  # a call that waits: runs on the rank's own tensor, no copy
    assert watch.calls[1].held is None


def test_a_tensor_written_while_its_call_is_in_flight_is_seen_at_the_wait(watch):
    # round 27: a scratch buffer reused for the next bucket, a division before the wait; the
    # watch runs the call on a copy, so the values alone never show it
    t, u = torch.ones(3), torch.ones(3)
    first = dist.all_reduce(t, async_op=True)
    second = dist.all_reduce(u, async_op=True)
    t.div_(2)  # before its wait: races the collective
    first.wait()
    second.wait()
    assert [c.written for c in watch.calls] == [True, False]
    assert watch.written() == watch.calls[:1] and watch.written(1) == []
    assert torch.equal(t, torch.ones(3))  # the wait leaves the collective's result there
    # memory from torch.empty may hold NaN, which equals nothing: read, not written
    empty = torch.tensor([float("nan"), 1.0, float("inf")])
    dist.broadcast(empty, src=0, async_op=True).wait()
    assert watch.calls[-1].written is False
    # any change at all is a write: a tiny one, near zero or relative; integers too
    for t, write in (
        (torch.zeros(2), lambda t: t.add_(1e-30)),
        (torch.ones(2), lambda t: t.mul_(1.000001)),
        (torch.ones(2, dtype=torch.int64), lambda t: t.add_(1)),
        (torch.ones(2, dtype=torch.int64), lambda t: None),
    ):
        handle = dist.all_reduce(t, async_op=True)
        write(t)
        handle.wait()
    assert [c.written for c in watch.calls[-4:]] == [True, True, True, False]


def test_an_async_gather_is_not_held_back_and_sync_calls_return_what_torch_returns(watch):
    out = [torch.zeros(2), torch.zeros(2)]
    handle = dist.all_gather(out, torch.ones(2), async_op=True)
    assert watch.calls[0].held is None and type(handle).__name__ == "WatchedHandle"
    assert dist.all_reduce(torch.ones(1)) is None  # a sync call: no handle to wrap
    assert watch.mark() == 2 and watch.unwaited(1) == []


def test_a_future_counts_its_waits_and_releases_the_held_result(watch):
    t = torch.ones(2)
    handle = dist.all_reduce(t, async_op=True)
    call = watch.calls[0]
    call.held[1].mul_(3)  # what the collective reached
    future = handle.get_future()  # done at once in the fake group: the result reaches t
    assert call.held is None and torch.equal(t, torch.full((2,), 3.0)) and call.waits == 0
    assert future.done() is True and call.waits == 1  # a done() that answered True counts
    future.wait()
    assert call.waits == 2
    chained = dist.broadcast(torch.ones(1), src=0, async_op=True).get_future().then(lambda f: 7)
    assert chained.wait() == 7 and watch.calls[1].waits == 1  # a wait on a chained future


def test_wait_all_and_collect_all_count_a_wait_for_each_watched_future(watch):
    futures = [dist.all_reduce(torch.ones(1), async_op=True).get_future() for _ in range(2)]
    torch.futures.wait_all(futures)
    assert [c.waits for c in watch.calls] == [1, 1]
    torch.futures.collect_all([dist.all_reduce(torch.ones(1), async_op=True).get_future()]).wait()
    assert watch.calls[2].waits == 1
    plain = torch.futures.Future()
    plain.set_result(5)
    assert torch.futures.wait_all([plain]) == [5]  # futures it did not make: torch's own
    assert [c.waits for c in watch.calls] == [1, 1, 1]


def test_a_future_then_returned_stays_open_until_a_wait_reaches_it(watch):
    """A wait on the call's own handle or future can return before a then() callback ran:
    the call counts as waited on only once a wait reaches each future then() made from it."""
    handle = dist.all_reduce(torch.ones(1), async_op=True)
    chained = handle.get_future().then(lambda f: 1)
    handle.wait()
    call = watch.calls[0]
    assert call.waits == 1 and watch.unwaited() == [call]
    assert unwaited_hint(watch.unwaited(), "your function returned") == (
        "1 collective(s) had a callback chained with then() whose future was never waited on "
        "before your function returned, the first an all_reduce of shape (1,) (4 bytes): a "
        "wait on the collective's own handle or future can return before the callback has "
        "run, so the callback's work may not be done yet. Wait on the future that then() "
        "returns (fut.then(callback).wait(), or torch.futures.wait_all of those futures)"
    )
    assert chained.wait() == 1 and watch.unwaited() == []
    # a chain of two: a wait on the last reaches the first; on the first, not the last
    future = dist.all_reduce(torch.ones(1), async_op=True).get_future()
    first = future.then(lambda f: 2)
    last = first.then(lambda f: 3)
    assert first.wait() == 2 and watch.unwaited(1) == [watch.calls[1]]
    assert last.wait() == 3 and watch.unwaited(1) == []
    only_last = dist.all_reduce(torch.ones(1), async_op=True).get_future().then(lambda f: 6)
    assert only_last.then(lambda f: 7).wait() == 7  # the one in between: reached through it
    # wait_all of the chained futures, and a done() that answered True, reach them too
    assert watch.unwaited(2) == []
    chained = [dist.all_reduce(torch.ones(1), async_op=True).get_future().then(lambda f: 4)]
    assert watch.unwaited(3) == [watch.calls[3]]
    assert torch.futures.wait_all(chained) == [4] and watch.unwaited(3) == []
    polled = dist.broadcast(torch.ones(1), src=0, async_op=True).get_future().then(lambda f: 5)
    assert polled.done() is True and watch.unwaited(4) == []
    assert [r.covered for r in watch.chained] == [True] * 7


def test_the_watch_keeps_no_chained_future_alive(watch):
    import gc
    import weakref

    chained = dist.all_reduce(torch.ones(1), async_op=True).get_future()
    chained = chained.then(lambda f: torch.ones(1))
    gone = weakref.ref(chained.wait())  # the callback's value: the future keeps it
    assert gone() is not None
    del chained
    gc.collect()
    assert gone() is None and len(watch.chained) == 1


def test_the_watch_puts_back_what_it_replaced_and_counts_nothing_after():
    originals = {k: getattr(dist, k) for k in ("all_reduce", "broadcast", "new_group")}
    collect = torch._C._collect_all
    with fake_process_group(2, 0):
        with CollectiveWatch() as w:
            assert dist.all_reduce is not originals["all_reduce"]
            assert torch._C._collect_all is not collect
        assert {k: getattr(dist, k) for k in originals} == originals
        assert torch._C._collect_all is collect
        dist.all_reduce(torch.ones(1))
        dist.new_group([0])
        assert w.calls == [] and w.groups_made == 0


def test_a_call_is_described_as_a_hint_names_it():
    call = Call(0, "all_reduce", (16, 6), 384, False)
    assert describe(call) == "an all_reduce of shape (16, 6) (384 bytes)"
    assert describe(Call(1, "broadcast_object_list", (), 0, False)) == "a broadcast_object_list"
    assert call.key() == "all_reduce [16, 6]"


class Work:
    """A collective's work as torch returns it, done when ``finish`` runs (in ``wait``)."""

    extra = "read through the handle"

    def __init__(self, finish=lambda: None, completed=True):
        self.finish, self.completed, self.waited_with = finish, completed, None

    def wait(self, *args, **kwargs):
        self.waited_with = (args, kwargs)
        self.finish()
        return True

    def is_completed(self):
        return self.completed


def held_call(t):
    """An async all-reduce of ``t`` as the watch records it: running on a copy."""
    return Call(
        0,
        "all_reduce",
        tuple(t.shape),
        t.nbytes,
        True,
        held=(t, t.detach().clone(), t.detach().clone()),
    )


def test_a_handle_copies_the_result_back_only_once_the_collective_is_done():
    t = torch.ones(2)
    call = held_call(t)
    copy = call.held[1]
    work = Work(finish=lambda: copy.fill_(5.0))  # the collective ends during the wait
    handle = WatchedHandle(work, call, CollectiveWatch())
    assert handle.wait(7, timeout=3) is True and work.waited_with == ((7,), {"timeout": 3})
    assert torch.equal(t, torch.full((2,), 5.0)) and call.waits == 1 and call.held is None
    assert handle.extra == "read through the handle"  # the rest of torch's work, passed on
    t2 = torch.ones(2)
    done = WatchedHandle(Work(), held_call(t2), CollectiveWatch())
    done._call.held[1].fill_(3.0)
    assert done.is_completed() is True  # said done: a wait, and the result is in
    assert done._call.waits == 1 and torch.equal(t2, torch.full((2,), 3.0))
    running = WatchedHandle(Work(completed=False), held_call(torch.ones(1)), CollectiveWatch())
    assert running.is_completed() is False and running._call.waits == 0
    assert running._call.held is not None


def test_a_future_gives_the_ranks_tensor_counts_done_only_when_done_and_passes_errors_on():
    t = torch.ones(2)
    notes = []
    call, watch = held_call(t), CollectiveWatch(note=lambda event, c: notes.append(event))
    real = torch.futures.Future()
    future = WatchedFuture(real, [call], watch)
    assert future.done() is False and call.waits == 0  # not done: no wait counted
    call.held[1].fill_(4.0)
    real.set_result([call.held[1]])  # torch's future holds the copy the collective ran on
    assert future.done() is True and call.waits == 1
    assert notes == ["polled"]  # a done() that answered True is a poll, not a wait
    value = future.wait()
    assert value[0] is t and torch.equal(t, torch.full((2,), 4.0))  # the rank's own tensor
    failing = torch.futures.Future()
    broken = WatchedFuture(failing, [held_call(torch.ones(1))], watch)
    failing.set_exception(RuntimeError("the peer left"))
    with pytest.raises(RuntimeError, match="the peer left"):
        broken.wait()


def test_futures_torch_made_alone_are_joined_by_torch_itself(watch):
    plain = torch.futures.Future()
    plain.set_result(5)
    assert not isinstance(torch.futures.collect_all([plain]), WatchedFuture)
    assert isinstance(
        torch.futures.collect_all([dist.all_reduce(torch.ones(1), async_op=True).get_future()]),
        WatchedFuture,
    )


def test_a_group_made_with_keywords_is_that_group(watch):
    sub = dist.new_group(ranks=[0])
    dist.all_reduce(torch.ones(1), group=sub)
    assert watch.calls[-1].group == (0,)


def test_a_list_of_one_tensor_is_read_for_its_first_and_only_shape(watch):
    # torch 2.14's fake group wants one per rank, 2.11's does not: recorded all the same
    with contextlib.suppress(RuntimeError):
        dist.reduce_scatter(torch.zeros(2), [torch.ones(2)])
    assert (watch.calls[-1].shape, watch.calls[-1].nbytes) == ((1, 2), 8)


def test_leaving_a_watch_twice_or_unentered_changes_nothing():
    original = dist.all_reduce
    idle = CollectiveWatch()
    idle.__exit__(None, None, None)
    with fake_process_group(2, 0):
        with idle:
            pass
        idle.__exit__(None, None, None)
    assert dist.all_reduce is original


def test_no_logs_have_no_mismatch():
    assert first_mismatch([]) is None
    assert first_mismatch([["all_reduce [2]"], ["all_reduce [2]", "barrier []"]]) == (
        "their collective number 2 differs (rank 0: none; rank 1: barrier [])"
    )


def test_a_collective_called_from_a_thread_of_the_answers_own_is_refused(watch):
    import threading

    raised = []

    def launch():
        try:
            dist.all_reduce(torch.ones(2), async_op=True)
        except CheckFailed as error:
            raised.append(error.hint)

    worker = threading.Thread(target=launch)
    worker.start()
    worker.join()
    assert raised == [
        "an all_reduce of shape (2,) (8 bytes) was called from a thread of your own, not the "
        "one your function was called on: threads run in whatever order they are scheduled, "
        "so the ranks can call their collectives in different orders (and reduce one rank's "
        "tensor with another's, or hang), and the caller goes on before the result is "
        "written. Call the collectives on the caller's thread (async_op=True already returns "
        "at once) and wait on the handles"
    ]
    assert watch.refused == raised  # kept, for a job whose answer swallowed the error
    dist.all_reduce(torch.ones(2))  # the job's own thread: watched as ever
    assert [c.kind for c in watch.calls] == ["all_reduce"]  # the refused one never ran


def test_collectives_called_through_distributed_c10d_are_watched_and_put_back(watch):
    import torch.distributed.distributed_c10d as c10d

    c10d.all_reduce(torch.ones(3))
    c10d.broadcast(torch.ones(2), src=0)
    assert [(c.kind, c.shape) for c in watch.calls] == [("all_reduce", (3,)), ("broadcast", (2,))]
    assert c10d.all_reduce is dist.all_reduce  # one watched function, under both names


def test_leaving_the_watch_puts_distributed_c10d_back():
    import torch.distributed.distributed_c10d as c10d

    original = c10d.all_reduce
    with fake_process_group(2, 0), CollectiveWatch():
        assert c10d.all_reduce is not original
    assert c10d.all_reduce is original and dist.all_reduce is original


def test_a_wait_from_a_thread_of_the_answers_own_is_refused_and_written_for_the_parent(
    watch, tmp_path
):
    import threading

    from d2lgpu.checks._kit_collective_reads import refused_hint

    handle = dist.all_reduce(torch.ones(2), async_op=True)
    raised = []

    def wait():
        try:
            handle.wait()
        except CheckFailed as error:
            raised.append(error.hint)

    waiter = threading.Thread(target=wait)
    waiter.start()
    waiter.join()
    assert raised == [
        "the handle of an all_reduce of shape (2,) (8 bytes) was waited on from a thread of "
        "your own, not the one your function runs on: the caller cannot tell when that wait "
        "ends, and reads the tensor whenever it goes on. Keep the handles and wait on them "
        "where your function runs (finish(), or before it returns)"
    ]
    assert watch.calls[0].waits == 0  # not counted: refused before the wait
    assert (tmp_path / "rank0.refused").read_text() == raised[0]
    assert refused_hint(tmp_path, 2) == raised[0]  # what the parent reads, rank 0 first
    handle.wait()  # on the job's own thread: counted
    assert watch.calls[0].waits == 1


def test_no_refused_call_reads_as_none(tmp_path):
    from d2lgpu.checks._kit_collective_reads import refused_hint

    assert refused_hint(tmp_path, 2) is None
    (tmp_path / "rank1.refused").write_text("rank 1's words")
    assert refused_hint(tmp_path, 2) == "rank 1's words"
    assert refused_hint(tmp_path, 1) is None  # only the ranks of this world


def test_point_to_point_sends_and_receives_are_watched(watch):
    dist.isend(torch.ones(3), dst=1)
    dist.send(torch.ones(2), dst=1)
    assert [(c.kind, c.shape, c.async_op) for c in watch.calls] == [
        ("isend", (3,), False),
        ("send", (2,), False),
    ]
