"""The checkers' rank jobs (d2lgpu.checks._ranks), in pytest's own process: the replies the
parent turns into a verdict and hints, the rules a rank applies as its job ends, what a rank
sends back of a learner's exception, and 10.allreduce_grads' job run as one rank of a fake
process group (its collectives move nothing), so that its record can be read line by line.
Each test takes well under a second."""

import gc
import tempfile
import threading
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed import all_reduce as _all_reduce_imported
from torch.nn.utils import clip_grad_norm_ as _clip_imported

from d2lgpu._fake_dist import fake_process_group
from d2lgpu.checks import _ranks
from d2lgpu.checks._ch10_refused import AVERAGE_CLIP
from d2lgpu.checks._kit_collective_reads import finished_rule_hint
from d2lgpu.checks._kit_collectives import Call, CollectiveWatch
from d2lgpu.checks._util import CheckFailed, NotAttempted

LOST = "RuntimeError: [../gloo/transport/tcp/pair.cc:534] Connection closed by peer"
HANG = (
    "the ranks did not finish: one waited in a collective the other never called (or your "
    "function never returns). Every rank must call the same collectives, in the same order, "
    "on tensors of the same size (no `if rank == 0:` around an all_reduce)"
)
SAME = "Every rank must call the same collectives, in the same order, on tensors of the same shape"


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """torch on one thread: a thread pool in pytest's process hangs a mutation run's forks."""


# --- the parent: replies to a verdict -------------------------------------------------------


def failure(replies, logs=None, advice=None, hint=_ranks.rank_hint):
    with pytest.raises((CheckFailed, NotAttempted)) as raised:
        _ranks.records_of(replies, hint, logs, advice)
    return raised.value


def test_every_rank_ok_gives_the_records_rank_0_first():
    assert _ranks.records_of([("ok", "a"), ("ok", "b")], _ranks.rank_hint) == ["a", "b"]


def test_the_stub_is_not_attempted_and_a_broken_rule_is_its_hint():
    stub = failure([("ok", 1), ("stub", "your code here")])
    assert type(stub) is NotAttempted and str(stub) == "your code here"
    rule = failure([("rule", "the rule's words"), ("ok", 1)])
    assert type(rule) is CheckFailed and rule.hint == "the rule's words"


def test_each_failure_without_logs_gets_its_hint_in_full():
    assert failure([("ok", 1), ("late", None)]).hint == HANG
    assert failure([("ok", 1), ("died", None)]).hint == (
        "rank 1 died without a word (killed by a signal?)"
    )
    assert failure([("error", LOST), ("ok", 1)]).hint == f"rank 0: {LOST}. {HANG}"
    assert failure([("ok", 1), ("error", "ValueError: bad (in your function f, line 2)")]).hint == (
        "rank 1: your function raised ValueError: bad (in your function f, line 2)"
    )
    none = "TypeError: unsupported operand type(s) for /=: 'NoneType' and 'int'"
    assert failure([("ok", 1), ("error", none)]).hint == (
        f"rank 1: {none}. Some parameters have no gradient (p.grad is None: unused in "
        "forward): skip them"
    )
    assert failure(
        [("error", "SystemExit: 3 (in your function f, line 4: `sys.exit(3)`)")]
    ).hint == (
        "rank 0 called sys.exit (SystemExit: 3 (in your function f, line 4: `sys.exit(3)`)): a "
        "rank that exits leaves early, and the others wait for it in their next collective. "
        "Every rank must run to the end; to refuse an input, raise an exception that says why"
    )


def test_exit_hint_only_for_a_system_exit():
    assert _ranks.exit_hint(2, "SystemExit: 0").startswith("rank 2 called sys.exit (SystemExit: 0)")
    assert _ranks.exit_hint(0, "ValueError: SystemExit") is None


def _logs(directory, *ranks_calls):
    for rank, calls in enumerate(ranks_calls):
        if calls is not None:
            (Path(directory) / f"rank{rank}").write_text("".join(c + "\n" for c in calls))
    return directory


def test_ranks_whose_collectives_differ_are_named_where_they_first_differ(tmp_path):
    logs = _logs(tmp_path, ["all_reduce [3]", "all_reduce [4]"], ["all_reduce [3]"])
    where = "their collective number 2 differs (rank 0: all_reduce [4]; rank 1: none)"
    assert failure([("late", None), ("died", None)], logs).hint == (
        f"rank 1 died (gloo aborts a rank whose collective does not match the others'): the "
        f"ranks' collectives do not match: {where}. {SAME}"
    )
    assert failure([("late", None), ("ok", 1)], logs).hint == (
        "rank 0 never finished (it waited in a collective the others did not call): the "
        f"ranks' collectives do not match: {where}. {SAME}"
    )
    assert failure([("error", LOST), ("ok", 1)], logs).hint == (
        f"rank 0 lost its peer: the ranks' collectives do not match: {where}. {SAME}"
    )
    # the exercise's advice, as words or as a function of where they differ
    assert failure([("late", None), ("ok", 1)], logs, "Call them all.").hint.endswith(
        f"{where}. Call them all."
    )
    told = []
    hint = failure([("late", None), ("ok", 1)], logs, lambda m: told.append(m) or "Mind it.").hint
    assert told == [where] and hint.endswith(f"{where}. Mind it.")
    assert failure([("late", None), ("ok", 1)], logs, lambda m: None).hint.endswith(
        f"{where}. {SAME}"
    )


def test_logs_are_read_only_for_ranks_that_died_never_finished_or_lost_their_peer(tmp_path):
    logs = _logs(tmp_path, ["all_reduce [3]"], ["broadcast [3]"])
    # a rank's own error: its hint, whatever the logs say
    own = failure([("ok", 1), ("error", "ValueError: no")], logs).hint
    assert own == "rank 1: your function raised ValueError: no"
    # the same calls on every rank (or a rank that wrote none): the failure's own hint
    (tmp_path / "same").mkdir()
    (tmp_path / "none").mkdir()
    same = _logs(tmp_path / "same", ["all_reduce [3]"], ["all_reduce [3]"])
    assert failure([("late", None), ("ok", 1)], same).hint == HANG
    assert failure([("ok", 1), ("died", None)], tmp_path / "none").hint.startswith(
        "rank 1 died without a word"
    )


def test_the_hint_function_gets_the_blamed_rank_status_and_payload():
    seen = []
    got = failure([("ok", 1), ("error", "E")], hint=lambda *a: seen.append(a) or "words")
    assert seen == [(1, "error", "E")] and got.hint == "words"


def test_mismatch_hint_with_any_other_status_says_the_rank_lost_its_peer():
    assert _ranks.mismatch_hint(3, "error", "M", "Advice.") == (
        "rank 3 lost its peer: the ranks' collectives do not match: M. Advice."
    )


# --- a rank: its exception as a reply ---------------------------------------------------------


def _raised(fn):
    try:
        fn()
    except BaseException as error:  # noqa: BLE001 (any exception a rank can reply)
        return error
    raise AssertionError(f"{fn} did not raise")


def stub():
    raise NotImplementedError("your code here")


def calls_a_library_that_raises_not_implemented():
    return torch.nn.Module().forward()


def divides(model):
    return model / 0


def test_a_learners_exception_becomes_a_reply():
    assert _ranks.learner_reply(_ranks.RuleBroken("a rule")) == ("rule", "a rule")
    assert _ranks.learner_reply(_raised(stub)) == ("stub", "your code here")
    # raised in a library that the learner's code called: an error, not the exercise's stub
    status, words = _ranks.learner_reply(_raised(calls_a_library_that_raises_not_implemented))
    assert status == "error" and words.startswith("NotImplementedError: "), words
    assert words.endswith(
        "(in your function calls_a_library_that_raises_not_implemented, line "
        f"{calls_a_library_that_raises_not_implemented.__code__.co_firstlineno + 1}: "
        "`return torch.nn.Module().forward()`)"
    ), words
    line = divides.__code__.co_firstlineno + 1
    assert _ranks.learner_reply(_raised(lambda: divides(1))) == (
        "error",
        f"ZeroDivisionError: division by zero (in your function divides, line {line}: "
        "`return model / 0`)",
    )


def raises(message):
    raise ValueError(message)


def test_a_reply_keeps_600_characters_of_the_message_and_where_it_was_raised():
    long = "x" * 1000
    line = raises.__code__.co_firstlineno + 1
    assert _ranks.learner_reply(_raised(lambda: raises(long))) == (
        "error",
        f"ValueError: {long}"[:600] + f" (in your function raises, line {line}: "
        "`raise ValueError(message)`)",
    )
    # never raised: no frame to name
    assert _ranks.learner_reply(ValueError(long)) == ("error", f"ValueError: {long}"[:600])


# --- a rank: the rules every rank job keeps ---------------------------------------------------


def test_a_collective_over_a_group_that_leaves_ranks_out_is_named():
    inside = Call(0, "all_reduce", (16, 6), 384, False, group=(0,))
    outside = Call(1, "all_reduce", (3,), 12, False, group=())
    everyone = Call(2, "all_reduce", (3,), 12, False, group=(0, 1))
    late = Call(3, "all_reduce", (3,), 12, True)
    assert finished_rule_hint([everyone, inside, outside], [late], 0, 2) == (
        "rank 0 of 2 called an all_reduce of shape (16, 6) (384 bytes) over a group of ranks "
        "[0]: ranks written in leave some out. Reduce over every rank: the default group, or "
        "one dist.new_group(list(range(dist.get_world_size()))) made once"
    )
    assert finished_rule_hint([outside], [], 1, 2).startswith(
        "rank 1 of 2 called an all_reduce of shape (3,) (12 bytes) over a group of ranks [] "
        "(rank 1 is not in it: the call did nothing): ranks written in leave some out."
    )
    assert finished_rule_hint([everyone, late], [late], 1, 2) == (
        "1 collective(s) launched with async_op=True were never waited on before rank 1 "
        "finished, the first an all_reduce of shape (3,) (12 bytes): the tensor may not hold "
        "the result yet. Keep each handle and call handle.wait() (or wait on "
        "handle.get_future(), or torch.futures.wait_all) before the tensor is used"
    )
    assert finished_rule_hint([everyone, late], [], 1, 2) is None
    assert finished_rule_hint([], [], 0, 1) is None


# --- 10.allreduce_grads' job, as one rank of a fake process group -----------------------------


def run(answer, world, rank=0):
    with fake_process_group(world, rank), tempfile.TemporaryDirectory() as logs:
        return _ranks._watched_job(_ranks._allreduce_job, answer, logs, rank, world)


def avg_loop(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= dist.get_world_size()


NAMES = ["body.0.weight", "body.0.bias", "body.2.weight", "body.2.bias"]
SHAPES = [(16, 6), (16,), (3, 16), (3,)]


def _by_hand(world, rank):
    """What rank ``rank`` of ``world`` computes at each step, its own share, and its final
    parameters when every step's gradient is its own divided by the world (the fake
    all-reduce moves nothing)."""
    model = _ranks.make_net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    grads = []
    for step in range(3):
        x, y = _ranks.batch(step)
        rows = slice(rank * 16 // world, (rank + 1) * 16 // world)
        opt.zero_grad()
        model.late = step >= _ranks.LATE == 2
        F.cross_entropy(model(x[rows]), y[rows]).backward()
        grads.append({n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None})
        for p in model.parameters():
            if p.grad is not None:
                p.grad /= world
        opt.step()
    return grads, model.state_dict()


def test_a_rank_records_each_steps_gradients_calls_and_what_the_function_changed():
    record = run(avg_loop, 2, 1)
    grads, final = _by_hand(2, 1)
    # the first model's 3 steps, then one of a second model, new (a Twin: its own parameter)
    assert len(record["steps"]) == _ranks.STEPS + 1 == 4
    twin = record["steps"][-1]
    assert list(twin["local"]) == ["scale", "unused.weight", "unused.bias", *NAMES]
    assert torch.equal(twin["after"]["scale"], twin["local"]["scale"] / 2)
    assert [c.index for c in twin["calls"]] == list(range(14, 19))
    first = 0
    for step, (s, mine) in enumerate(zip(record["steps"][:-1], grads, strict=True)):
        assert list(s["local"]) == ["unused.weight", "unused.bias", *NAMES]
        late = step >= 2  # the layer `unused` has gradients from step LATE on
        names, shapes = (["unused.weight", "unused.bias"], [(3, 3), (3,)]) if late else ([], [])
        assert (s["local"]["unused.weight"] is None) == (s["after"]["unused.bias"] is None) != late
        for name in [*names, *NAMES]:
            assert torch.equal(s["local"][name], mine[name]), (step, name)
            assert torch.equal(s["after"][name], mine[name] / 2), (step, name)
        assert s["params_changed"] == [] and s["groups_made"] == 0
        assert s["host_copy"] is None and s["uncarried"] == []
        assert [(c.kind, c.shape, c.phase) for c in s["calls"]] == [
            ("all_reduce", shape, f"at step {step}") for shape in [*shapes, *SHAPES]
        ]
        assert [c.index for c in s["calls"]] == list(range(first, first + len(s["calls"])))
        first += len(s["calls"])
    assert list(record["final"]) == list(final)
    for name, value in final.items():
        assert torch.equal(record["final"][name], value), name


def _by_an_alias(model):  # the name imported from torch.distributed: the watch rebinds it
    for p in model.parameters():
        if p.grad is not None:
            _all_reduce_imported(p.grad)
            p.grad /= dist.get_world_size()


def test_a_collective_called_through_a_name_the_answer_imported_is_watched():
    record = run(_by_an_alias, 2)
    assert [len(s["calls"]) for s in record["steps"]] == [4, 4, 6, 5]
    assert _all_reduce_imported is dist.all_reduce  # put back as the job ends
    with fake_process_group(2, 0), CollectiveWatch(answer=_by_an_alias) as watching:
        _all_reduce_imported(torch.ones(1))  # the answer's module's name: this one's
    assert [c.kind for c in watching.calls] == ["all_reduce"]


_HANDLES = []  # every step's handles, never cleared: the mistake the next test names


def _kept_handles(model):
    for p in model.parameters():
        if p.grad is not None:
            p.grad /= dist.get_world_size()
            _HANDLES.append(dist.all_reduce(p.grad, async_op=True))
    for handle in _HANDLES:
        handle.wait()


def test_a_wait_on_a_handle_of_an_earlier_step_is_named():
    _HANDLES.clear()
    with pytest.raises(_ranks.RuleBroken) as raised:
        run(_kept_handles, 2)
    assert str(raised.value) == (
        "4 collective(s) launched in an earlier step were waited on again before your function "
        "returned, the first an all_reduce of shape (16, 6) (384 bytes): the list of handles is "
        "never cleared, so it keeps every step's handles, and the gradients they hold, alive, "
        "and each step waits on all of them again. Keep this step's handles only: clear the "
        "list after the waits (or make a new one in each call)"
    )
    _HANDLES.clear()


def _divides_before_the_wait(model):
    handles = [(p, dist.all_reduce(p.grad, async_op=True)) for p in model.parameters()
               if p.grad is not None]  # fmt: skip
    for p, handle in handles:
        p.grad /= dist.get_world_size()  # written while its all-reduce may still be reading it
        handle.wait()


def test_a_tensor_written_before_its_wait_is_named_when_the_function_returns():
    with pytest.raises(_ranks.RuleBroken) as raised:
        run(_divides_before_the_wait, 2)
    assert str(raised.value) == (
        "4 collective(s) launched with async_op=True had their tensor written before the wait "
        "on them (seen when your function returned), the first an all_reduce of shape (16, 6) "
        "(384 bytes): until the wait returns, the collective reads and writes that memory, so a "
        "write there (a buffer reused for the next one, a copy or a division before the wait) "
        "races it, and the wait then leaves whichever came last. Give each collective in flight "
        "a tensor of its own, and write into it only after its wait"
    )


_IN_BACKWARD = []


def _hooks_written_before_the_wait(model):
    """From its second call on, hooks the first call registered all-reduce in backward; the
    call divides each gradient before waiting on its all-reduce."""
    if not getattr(model, "hooked", False):
        model.hooked = True
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(
                lambda p: _IN_BACKWARD.append((p, dist.all_reduce(p.grad, async_op=True)))
            )
        avg_loop(model)
        return
    for p, handle in _IN_BACKWARD:
        p.grad /= dist.get_world_size()
        handle.wait()
    _IN_BACKWARD.clear()


def test_calls_made_in_backward_are_left_to_the_parents_rule_though_written_before_their_wait():
    # the parent names collectives in backward first (rank_hint: "ran during backward"), the
    # cause; a rank that named the write instead would hide it
    _IN_BACKWARD.clear()
    record = run(_hooks_written_before_the_wait, 2)
    assert [s["in_backward"] for s in record["steps"]] == [0, 4, 6, 0]


def test_waits_reads_each_earlier_calls_waits_and_a_wait_before_the_step_is_no_stale_one():
    with fake_process_group(2, 0), CollectiveWatch() as watching:
        _ranks._WATCH.append(watching)
        try:
            handles = [dist.all_reduce(torch.ones(1), async_op=True) for _ in range(3)]
            handles[0].wait()
            assert _ranks.waits(2) == [1, 0]
            kept = _ranks.waits(2)
            handles[1].wait()  # an earlier step's call waited now: named
            with pytest.raises(_ranks.RuleBroken, match="1 collective.s. launched in an earlier"):
                _ranks.check_waited(2, "now", kept)
            handles[2].wait()  # this step's own call: waited, and nothing else
            _ranks.check_waited(2, "now", _ranks.waits(2))
        finally:
            _ranks._WATCH.pop()


def test_the_second_model_has_what_a_loop_over_children_or_state_dict_gets_wrong():
    twin = _ranks.make_net(_ranks.Twin)
    names = [n for n, _ in twin.named_parameters()]
    assert "scale" in names and "head.weight" not in names  # a layer's parameters once
    own = {id(p) for child in twin.children() for p in child.parameters()}
    assert id(twin.scale) not in own  # in no child module
    kept = twin.state_dict(keep_vars=True)
    assert kept["head.weight"] is kept["body.2.weight"] and "shift" in kept  # twice; a buffer


def test_one_rank_on_the_global_batch_ends_where_the_reference_does():
    record = run(avg_loop, 1)
    reference = _ranks.reference_steps()
    assert list(reference) == list(record["final"])
    for name, value in reference.items():
        torch.testing.assert_close(record["final"][name], value)
    untrained = _ranks.make_net().state_dict()
    assert not torch.equal(reference["body.0.weight"], untrained["body.0.weight"])
    # the layer `unused` is trained at step LATE only: one step of its own
    assert not torch.equal(reference["unused.weight"], untrained["unused.weight"])


def test_the_zero_step_batch_starts_with_zeros_and_each_step_has_its_own():
    batches = [_ranks.batch(step) for step in range(_ranks.STEPS)]
    for step, (x, y) in enumerate(batches):
        assert x.shape == (16, 6) and y.shape == (16,)
        assert y.min() >= 0 and y.max() <= 2 and len(set(y.tolist())) > 1
        assert x[8:].abs().min() > 0
        assert x[:8].any() == (step != 1), step
    assert set(torch.cat([y for _, y in batches]).tolist()) == {0, 1, 2}
    assert not torch.equal(batches[0][0], batches[2][0])
    assert torch.equal(_ranks.batch(2)[0], batches[2][0])
    assert torch.equal(_ranks.make_net().body[0].weight, _ranks.make_net().body[0].weight)


def averages_data(model):
    for p in model.parameters():
        dist.all_reduce(p.data)
        p.data /= dist.get_world_size()


def skips_biases(model):
    for name, p in model.named_parameters():
        if p.grad is not None and not name.endswith("bias"):
            dist.all_reduce(p.grad)


def reduces_a_host_copy(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad.cpu())


def new_group_each_call(model):
    group = dist.new_group()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=group)


def test_a_rank_records_parameters_changed_gradients_not_sent_host_copies_and_groups():
    # the first model's 3 steps, then the Twin's, whose own parameter comes first
    steps = run(averages_data, 2)["steps"]
    assert all(s["params_changed"] == ["unused.weight", "unused.bias", *NAMES] for s in steps[:3])
    assert steps[3]["params_changed"] == ["scale", "unused.weight", "unused.bias", *NAMES]
    assert [len(s["calls"]) for s in steps] == [6, 6, 6, 7]  # every parameter, each step
    steps = run(skips_biases, 2)["steps"]
    # from step LATE the layer `unused` has gradients too, its bias among those skipped
    assert [s["uncarried"] for s in steps] == [["body.0.bias", "body.2.bias"]] * 2 + [
        ["unused.bias", "body.0.bias", "body.2.bias"],
        ["body.0.bias", "body.2.bias"],
    ]
    copied = [s["host_copy"] for s in run(reduces_a_host_copy, 2)["steps"]]
    assert copied == ["body.0.weight"] * 2 + ["unused.weight", "scale"]  # the first with a grad
    assert [s["groups_made"] for s in run(new_group_each_call, 2)["steps"]] == [1, 1, 1, 1]


def leaves_a_handle(model):
    dist.all_reduce(model.body[0].weight.grad, async_op=True)


def test_a_handle_left_when_the_function_returns_is_named_at_that_step():
    with pytest.raises(_ranks.RuleBroken) as raised:
        run(leaves_a_handle, 2)
    assert str(raised.value).startswith(
        "1 collective(s) launched with async_op=True were never waited on before your function "
        "returned, the first an all_reduce of shape (16, 6) (384 bytes)"
    )


def test_a_broken_rule_at_the_end_of_a_job_is_raised_by_the_watched_job():
    def job(answer, rank, world):
        dist.all_reduce(torch.ones(2), group=dist.new_group([0]))
        return "record"

    with fake_process_group(2, 0), tempfile.TemporaryDirectory() as logs:
        with pytest.raises(_ranks.RuleBroken, match=r"over a group of ranks \[0\]: ranks written"):
            _ranks._watched_job(job, None, logs, 0, 2)
        assert (Path(logs) / "rank0").read_text() == "all_reduce [2]\n"
        assert _ranks._watched_job(lambda a, r, w: (a, r, w), "answer", logs, 1, 2) == (
            "answer",
            1,
            2,
        )
    assert _ranks._WATCH == []


def _sums_by_its_imported_name(x):
    _all_reduce_imported(x)


def _leaves_grad_mode_off(x):
    torch.set_grad_enabled(False)


def test_a_job_watches_the_answers_own_names_and_keeps_a_ranks_defaults():
    # a job of no TorchFunctionMode (10.allreduce_grads' HostCopies is one, and routes any
    # call to torch.distributed's own name): the answer's name for all_reduce is rebound
    def job(answer, rank, world):
        answer(torch.ones(2))
        return "record"

    with fake_process_group(2, 0), tempfile.TemporaryDirectory() as logs:
        assert _ranks._watched_job(job, _sums_by_its_imported_name, logs, 0, 2) == "record"
        assert (Path(logs) / "rank0").read_text() == "all_reduce [2]\n"
        with pytest.raises(CheckFailed) as raised:
            _ranks._watched_job(job, _leaves_grad_mode_off, logs, 1, 2)
    assert torch.is_grad_enabled()
    assert str(raised.value).startswith(
        "in a rank, your code leaves a process-wide default of torch changed "
        "(torch.set_grad_enabled(False)): "
    )


def _sums_on_two_threads_of_its_own_and_swallows_the_errors(x):
    def send(tensor):
        try:
            dist.all_reduce(tensor)
        except Exception:  # the refusal caught: the job still names the first refused call
            pass

    for tensor in (x, x[:1]):
        thread = threading.Thread(target=send, args=(tensor,))
        thread.start()
        thread.join()


def test_the_first_collective_refused_on_a_thread_of_the_answers_own_is_named():
    def job(answer, rank, world):
        answer(torch.ones(2))
        return "record"

    with fake_process_group(2, 0), tempfile.TemporaryDirectory() as logs:
        with pytest.raises(_ranks.RuleBroken) as raised:
            _ranks._watched_job(job, _sums_on_two_threads_of_its_own_and_swallows_the_errors,
                                logs, 0, 2)  # fmt: skip
    assert str(raised.value).startswith(
        "an all_reduce of shape (2,) (8 bytes) was called from a thread of your own, not the "
        "one your function was called on: "
    )


def averages_without_the_model():
    return None


def test_a_call_of_the_answer_that_python_refuses_is_a_rule_with_the_signature_hint():
    # the checker's own job (course code) calls the answer with the model; a job written
    # here would count as the learner's code, whose refused calls are their own errors
    with fake_process_group(2, 0), tempfile.TemporaryDirectory() as logs:
        with pytest.raises(CheckFailed) as raised:
            _ranks._watched_job(_ranks._allreduce_job, averages_without_the_model, logs, 0, 2)
        with pytest.raises(TypeError, match="unsupported operand"):  # any other error goes on
            _ranks._watched_job(_ranks._allreduce_job, lambda model: model + 1, logs, 0, 2)
    assert _ranks.learner_reply(raised.value) == (
        "rule",
        "your averages_without_the_model() could not be called as the exercise calls it "
        "(TypeError: averages_without_the_model() takes 0 positional arguments but 1 was "
        "given): nothing of it ran. Keep the signature of the exercise's starter code: the same "
        "arguments, in the same order, with the same names",
    )
    assert _ranks._WATCH == []


def test_a_job_runs_with_the_heap_it_was_forked_with_frozen_and_leaves_it_unfrozen():
    """A look at what a job made (gc.get_objects) reads only the job's objects, not the
    million a rank inherits; the freeze is taken back whether the job returns or raises."""
    made_before = [torch.ones(1)]  # noqa: F841 (alive, and frozen while the job runs)

    def job(answer, rank, world):
        mine = torch.ones(1)
        seen = [o for o in gc.get_objects() if type(o) is torch.Tensor]
        return gc.get_freeze_count() > 0, any(o is mine for o in seen), len(seen)

    def raises(answer, rank, world):
        assert gc.get_freeze_count() > 0
        raise ValueError("the answer's own error")

    with fake_process_group(2, 0), tempfile.TemporaryDirectory() as logs:
        frozen, sees_its_own, seen = _ranks._watched_job(job, None, logs, 0, 2)
        assert frozen and sees_its_own and seen == 1
        assert gc.get_freeze_count() == 0
        with pytest.raises(ValueError, match="the answer's own error"):
            _ranks._watched_job(raises, None, logs, 0, 2)
        assert gc.get_freeze_count() == 0


# --- the parent: the run itself, with d2lgpu.ranks' start replaced by one process -------------


def fake_rank_replies(seen, raises=None):
    """``rank_replies`` as this process: each rank's job in turn under a fake process group,
    its exception turned into a reply by the ``reply`` it was given."""

    def rank_replies(fn, world, timeout_s, *, wait_s, reply, stuck):
        seen.append((world, timeout_s, wait_s, reply, len(stuck.paths)))
        if raises is not None:
            raise raises
        replies = []
        for rank in range(world):
            with fake_process_group(world, rank):
                try:
                    replies.append(("ok", fn(rank, world)))
                except Exception as error:  # noqa: BLE001 (any exception a rank can reply)
                    replies.append(reply(error))
        return replies

    return rank_replies


def test_run_ranks_starts_the_job_on_each_rank_with_the_checkers_time_limits(monkeypatch):
    seen = []
    monkeypatch.setattr(_ranks, "rank_replies", fake_rank_replies(seen))
    records = _ranks.run_ranks(avg_loop, world=3)
    # the run ends early where the ranks' logged collectives say they wait for each other
    assert seen == [(3, _ranks.COLLECTIVE_TIMEOUT_S, _ranks.WAIT_S, _ranks.learner_reply, 3)]
    assert len(records) == 3 and all(len(r["steps"]) == 4 for r in records)  # and the Twin's
    assert [c.shape for c in records[2]["steps"][0]["calls"]] == SHAPES

    def job(answer, rank, world):
        return answer * 10 + rank

    assert _ranks.run_ranks(4, world=2, job=job) == [40, 41]
    seen.clear()
    assert _ranks.run_ranks(4, job=job) == [40, 41] and seen[0][0] == _ranks.WORLD == 2
    with pytest.raises(NotAttempted, match="your code here"):
        _ranks.run_ranks(lambda model: stub())


def test_run_ranks_names_what_cannot_travel_to_the_ranks(monkeypatch):
    from d2lgpu.ranks import CannotSend

    words = "cannot send <function f> to the ranks: TypeError: cannot pickle '_thread.lock'"
    monkeypatch.setattr(_ranks, "rank_replies", fake_rank_replies([], CannotSend(words)))
    with pytest.raises(CheckFailed) as raised:
        _ranks.run_ranks(avg_loop)
    assert raised.value.hint == words


def skips_zero_grads(model):
    for p in model.parameters():
        if p.grad is not None and p.grad.any():
            dist.all_reduce(p.grad)


def test_only_10_allreduce_grads_gets_the_zero_step_advice(monkeypatch):
    logs_seen = []

    def rank_replies(fn, world, timeout_s, *, wait_s, reply, stuck):
        for rank in range(world):  # each rank's calls written to the logs, then a lost peer
            with fake_process_group(world, rank):
                fn(rank, world)
        logs_seen.append(fn.args[2])
        return [("error", LOST)] * world

    monkeypatch.setattr(_ranks, "rank_replies", rank_replies)
    with pytest.raises(CheckFailed) as raised:
        _ranks.run_ranks(skips_zero_grads)
    assert raised.value.hint.startswith(
        "rank 0 lost its peer: the ranks' collectives do not match: their collective number 5 "
        "differs (rank 0: all_reduce [16] at step 1; rank 1: all_reduce [16, 6] at step 1). "
        "Every rank must call the same collectives whatever its gradients hold: at step 1"
    ), raised.value.hint

    def job(answer, rank, world):  # another exercise's job, its ranks differing at step 1
        _ranks.watch().phase = "at step 1"
        dist.all_reduce(torch.ones(rank + 1))

    with pytest.raises(CheckFailed) as raised:
        _ranks.run_ranks(None, job=job)
    assert raised.value.hint.endswith(f"rank 1: all_reduce [2] at step 1). {SAME}")
    assert not Path(logs_seen[0]).exists()  # the calls' logs are removed after the run


_HISTORY = []  # every call's averaged gradients, kept: what the next test counts


def _keeps_every_flat(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, part in zip(grads, flat.split([g.numel() for g in grads]), strict=True):
        g.copy_(part.view_as(g))
    _HISTORY.append(flat)


def test_a_rank_records_what_each_call_keeps_and_what_all_hold_after_it():
    _HISTORY.clear()
    steps = run(avg_loop, 2)["steps"]
    assert [s["kept"] for s in steps] == [0, 0, 0, 0] and [s["held"] for s in steps] == [0] * 4
    assert all(s["host_read"] is None and s["buffers_sent"] == [] for s in steps)
    assert [s["in_backward"] for s in steps] == [0] * 4
    steps = run(_keeps_every_flat, 2)["steps"]
    # 163 gradient elements at the first two steps, 175 with the layer used from LATE, and
    # the second model's 166; each call's flat buffer is kept to the end
    assert [s["kept"] for s in steps] == [163, 163, 175, 166]
    assert [s["held"] for s in steps] == [163, 326, 501, 166]
    _HISTORY.clear()


_GRADS: list = []  # each call's gradient tensors, by name


def _records_grad_tensors(model):
    _GRADS.append({n: p.grad for n, p in model.named_parameters() if p.grad is not None})
    avg_loop(model)


def test_the_gradient_tensors_are_new_at_step_1_and_the_same_again_at_step_2():
    # zero_grad(set_to_none=True) at step 1, in place at step 2: what an answer keeps by the
    # gradient tensors (views of a buffer, a cache by their ids) meets new tensors for step 0's
    # parameters at step 1, and the same tensors again at step 2, where the late layer joins
    _GRADS.clear()
    run(_records_grad_tensors, 2)
    first, second, third = _GRADS[:3]
    assert len(first) == 4 and len(second) == 4
    assert not any(second[n] is g for n, g in first.items())
    assert len(third) == 6 and all(third[n] is g for n, g in second.items())
    _GRADS.clear()


def _reads_on_the_host(model):
    order = torch.randperm(4).tolist()  # made on the host: no sync on a GPU
    made = torch.zeros(2, device=next(model.parameters()).device)  # on the GPU, there
    assert sorted(order) == [0, 1, 2, 3] and made.sum().item() == 0.0
    avg_loop(model)


def _reads_a_gradient(model):
    views = [p.grad.view(-1) for p in model.parameters() if p.grad is not None]
    if torch.cat(views).abs().max() > 1e6:  # bool() of a value computed from the gradients
        return
    avg_loop(model)


def test_reads_on_the_host_count_values_a_gpu_would_hold_only():
    steps = run(_reads_on_the_host, 2)["steps"]
    assert [s["host_read"] for s in steps] == [".item()"] * 4
    steps = run(_reads_a_gradient, 2)["steps"]
    assert [s["host_read"] for s in steps] == ["bool()"] * 4
    steps = run(lambda model: (torch.randperm(3).tolist(), avg_loop(model)), 2)["steps"]
    assert [s["host_read"] for s in steps] == [None] * 4
    steps = run(lambda model: (float(next(model.parameters()).reshape(-1)[0]), avg_loop(model)), 2)
    assert [s["host_read"] for s in steps["steps"]] == ["float()"] * 4  # a parameter's value


def _reseeds(model):
    torch.manual_seed(0)
    avg_loop(model)


def test_a_function_that_reseeds_the_global_generator_is_named():
    with pytest.raises(
        _ranks.RuleBroken, match=r"^your function called torch.manual_seed\(\) and left"
    ):
        run(_reseeds, 2)


def _raises_at_late(model):
    if model.unused.weight.grad is not None:
        raise ValueError("a layer I did not expect")
    avg_loop(model)


def _freezes_unused(model):
    for p in model.parameters():
        if p.grad is None:
            p.requires_grad_(False)
    avg_loop(model)


_CALLS = []  # the steps the next answers were called at


def _clips_at_late(model):
    _CALLS.append(len(_CALLS))
    avg_loop(model)
    if _CALLS[-1] == _ranks.LATE:
        _clip_imported(model.parameters(), 1.0)  # by the name it imported


def _loses_its_peer_at_late(model):
    _CALLS.append(len(_CALLS))
    if _CALLS[-1] == _ranks.LATE:
        raise RuntimeError(LOST)  # what gloo raises in a rank whose peer died
    avg_loop(model)


def test_a_rule_or_a_lost_peer_at_late_is_not_blamed_on_the_step_from_which_a_layer_is_used():
    _CALLS.clear()
    with pytest.raises(_ranks.RuleBroken) as raised:
        run(_clips_at_late, 2)
    assert str(raised.value) == AVERAGE_CLIP.format(name="clip_grad_norm_")
    _CALLS.clear()
    with pytest.raises(RuntimeError, match="Connection closed by peer") as raised:
        run(_loses_its_peer_at_late, 2)
    assert type(raised.value) is RuntimeError  # the peer's failure: the parent reads its logs
    _CALLS.clear()


def test_a_rank_names_a_call_that_first_fails_at_late_and_one_that_freezes_parameters():
    with pytest.raises(_ranks.RuleBroken) as raised:
        run(_raises_at_late, 2)
    assert str(raised.value).startswith(
        "your function raised ValueError: a layer I did not expect (in your function "
        "_raises_at_late, line "
    )
    assert str(raised.value).endswith(
        "at step 2, the first step at which unused.weight and unused.bias have a gradient "
        "(their layer was not used at the steps before, and those steps passed). Which "
        "parameters have a gradient can change from one call to the next, and so can their "
        "sizes: read p.grad in every call. A flat buffer sized, or a list of parameters made, "
        "at the first call and kept no longer fits"
    )
    with pytest.raises(_ranks.RuleBroken) as raised:
        run(_freezes_unused, 2)
    assert str(raised.value).startswith(
        "your function changed requires_grad of unused.weight, unused.bias (step 0): "
    )
