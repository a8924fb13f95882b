"""10.overlap_ddp's rules on the ranks' records, called in this process on hand-built records:
what the answer built, each step's log made from the recorded calls, the log's rules, the
buckets, when each bucket was launched and the gradients. The checks that start gloo ranks
are in tests/test_checks_ch10_ddp_by_hand.py; here each test takes milliseconds."""

import pytest
import torch
from grading_helpers import rule_fails

from d2lgpu.checks._ch10_buckets import check_buckets as _check_buckets
from d2lgpu.checks._ch10_buckets import check_launched_when_ready as _check_launched_when_ready
from d2lgpu.checks._ch10_by_hand import STEPS
from d2lgpu.checks._ch10_overlap_rules import read_step_log, setup_error, step_logs
from d2lgpu.checks._kit_collectives import Call
from d2lgpu.checks._util import CheckFailed
from d2lgpu.checks.ch10_ddp_by_hand import _compare_overlap_grads, _overlap_checks

# the OverlapNet's parameters, in model order: 6 -> 16 -> 16 -> 3
NUMELS = [96, 16, 256, 16, 48, 3]
NAMES = [f"p{i}" for i in range(6)][::-1]  # in model order: "p0" is the first gradient ready


def named(log):
    """The log with its ready events named in turn, p0 first: backward's reverse order."""
    count = iter(range(len(log)))
    return [("ready", f"p{next(count)}") if e == ("ready",) else e for e in log]


def launched_when_ready(launched, log, cap, step):
    """``_check_launched_when_ready`` for buckets of ``launched`` elements, filled in reverse
    model order, and gradients ready in that order."""
    arrival, buckets, i = list(range(6))[::-1], [], 0
    for size in launched:
        bucket = []
        while sum(NUMELS[j] for j in bucket) < size:
            bucket.append(arrival[i])
            i += 1
        buckets.append(bucket)
    _check_launched_when_ready(buckets, arrival, named(log), cap, step)


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """torch on one thread: a thread pool in pytest's process hangs a mutation run's forks."""


def good_log(step=0, first=323, second=112):
    """A right step: 4 gradients, the first bucket, 2 more, the second, both waited in finish."""
    return [
        *[("ready", f"p{i}") for i in range(4)],
        ("launch", first, True, True),
        ("ready", "p4"),
        ("ready", "p5"),
        ("launch", second, True, True),
        ("backward returned",),
        ("wait", 0, False, step),
        ("wait", 1, False, step),
        ("finish returned",),
    ]


def read(log, step=0):
    return read_step_log(log, 512, step, NUMELS)


def test_a_new_bucket_starts_empty_under_both_rules():
    from d2lgpu.checks._ch10_buckets import bucket_numels

    # after a bucket closes at exactly the cap, the next one fills from 0 bytes
    assert bucket_numels([8, 3, 4, 2], [1, 1, 1, 1], 8) == [1, 3]
    assert bucket_numels([8, 8, 4, 4], [1, 1, 1, 1], 8, close_at_cap=False) == [1, 1, 2]


def test_setup_error_names_a_missing_finish_and_missing_hooks():
    assert setup_error({"type": "Mine", "finish": True, "hooks": 2}) is None
    hint = setup_error({"type": "Mine", "finish": False, "hooks": 2})
    assert hint == (
        "Mine has no method finish(): add finish(self), which waits on the handles after backward"
    )
    hint = setup_error({"type": "Mine", "finish": True, "hooks": 1})  # the checker's own only
    assert hint.startswith("no parameter has a hook registered with p.register_post_accumulate")
    assert "p.register_hook runs earlier" in hint
    # a function that returns nothing in place of the class: named before the methods it lacks
    assert setup_error({"type": "NoneType", "finish": False, "hooks": 1}) == (
        "calling your answer gave None, not a model: pass the class OverlappedDDP itself (or a "
        "function that returns one), whose hooks launch the all-reduces and whose finish() "
        "waits on them"
    )


def test_step_logs_turn_the_recorded_calls_into_launches_others_and_waits():
    flat = Call(7, "all_reduce", (2, 3), 24, True)  # float32: 6 elements
    double = Call(8, "all_reduce", (5,), 40, False)  # float64: still 5 elements
    empty = Call(9, "all_reduce", (0,), 0, True)
    small = Call(11, "all_reduce", (6,), 6, True)  # int8: 6 elements of one byte
    other = Call(10, "broadcast", (3,), 12, True)
    raw = [
        [
            ("ready", "a"),
            ("call", "launch", flat, True),
            ("call", "launch", other, True),
            ("call", "launch", double, False),
            ("backward returned",),
            ("call", "wait", other, False),  # not an all-reduce: no wait in the log
            ("call", "wait", flat, False),
            ("finish returned",),
        ],
        [
            ("call", "launch", empty, True),
            ("call", "wait", flat, True),
            ("call", "wait", empty, False),
            ("call", "launch", small, True),
        ],
    ]
    assert step_logs(raw) == [
        [
            ("ready", "a"),
            ("launch", 6, True, True),
            ("other", "a broadcast of shape (3,) (12 bytes)", True),
            ("launch", 5, False, False),
            ("backward returned",),
            ("wait", 0, False, 0),
            ("finish returned",),
        ],
        # the wait on step 0's first launch keeps its step; the empty one is launch 0 of step 1
        [
            ("launch", 0, True, True),
            ("wait", 0, True, 0),
            ("wait", 0, False, 1),
            ("launch", 6, True, True),
        ],  # fmt: skip
    ]
    # whole numbers of elements, as a hint prints them
    assert all(type(e[1]) is int for log in step_logs(raw) for e in log if e[0] == "launch")


def test_step_logs_number_each_wait_by_its_all_reduces_place_among_the_steps_launches():
    first = Call(3, "all_reduce", (4,), 16, True)
    second = Call(4, "all_reduce", (2,), 8, True)
    third = Call(5, "all_reduce", (1,), 4, True)
    other = Call(6, "broadcast", (3,), 12, True)  # not an all-reduce: not counted
    raw = [
        [
            ("call", "launch", first, True),
            ("ready", "a"),
            ("call", "launch", other, True),
            ("call", "launch", second, True),
            ("call", "launch", third, False),
            ("call", "wait", third, False),
            ("call", "wait", first, False),
            ("call", "polled", second, False),
        ]
    ]
    assert step_logs(raw) == [
        [
            ("launch", 4, True, True),
            ("ready", "a"),
            ("other", "a broadcast of shape (3,) (12 bytes)", True),
            ("launch", 2, True, True),
            ("launch", 1, True, False),
            ("wait", 2, False, 0),
            ("wait", 0, False, 0),
            ("wait", 1, False, 0, True),
        ]
    ]


def test_a_right_step_gives_its_buckets_in_order():
    assert read(good_log()) == [323, 112]
    assert read(good_log(step=2), step=2) == [323, 112]
    # a blocking all-reduce after backward is no wait inside a hook, and needs no wait
    log = good_log()
    log[4] = ("launch", 323, False, False)
    log.remove(("wait", 0, False, 0))
    assert read(log) == [323, 112]


def test_no_all_reduce_is_named_for_the_first_step_and_for_a_later_one():
    log = [e for e in good_log() if e[0] not in ("launch", "wait")]
    assert rule_fails(read, log) == (
        "no dist.all_reduce was called (bucket_bytes=512, step 0): register a hook on each "
        "parameter (p.register_post_accumulate_grad_hook) that launches the all-reduce of its "
        "bucket (call it as dist.all_reduce, so that the checker sees it)"
    )
    assert rule_fails(read, log, 1) == (
        "no dist.all_reduce in step 1, though step 0 had some (bucket_bytes=512): the hooks run "
        "every step; reset what counts a bucket's ready gradients (and the list of handles) in "
        "finish(), ready for the next step"
    )


@pytest.mark.parametrize(
    "inside, when", [(True, "inside backward"), (False, "after backward returned")]
)
def test_another_collective_is_named_with_when_it_ran(inside, when):
    log = good_log()
    log.insert(5, ("other", "a broadcast of shape (3,) (12 bytes)", inside))
    assert rule_fails(read, log) == (
        f"besides the buckets' all-reduces, a broadcast of shape (3,) (12 bytes) ran {when} "
        "(bucket_bytes=512, step 0): an extra collective. Each step sends each bucket once, "
        "and nothing else"
    )


def test_an_all_reduce_that_is_no_bucket_and_a_bucket_sent_twice_are_told_apart():
    log = good_log()
    log.insert(7, ("launch", 5, True, True))
    log.insert(-1, ("wait", 2, False, 0))
    assert rule_fails(read, log) == (
        "3 all-reduces for 2 buckets (bucket_bytes=512, step 0): the all-reduce of 5 element(s) "
        "is not a bucket (the buckets hold [323, 112]), an extra collective. Each step sends "
        "each bucket once, and nothing else"
    )
    # the second rule's buckets plus a stranger: the stranger named against those buckets
    log = good_log(first=67, second=256)
    log.insert(7, ("launch", 112, True, True))
    log.insert(8, ("launch", 5, True, True))
    assert "4 all-reduces for 3 buckets" in rule_fails(read, log)
    assert "the buckets hold [67, 256, 112]" in rule_fails(read, log)
    log = good_log()
    log.insert(7, ("launch", 112, True, False))
    assert rule_fails(read, log) == (
        "a bucket sent twice (bucket_bytes=512, step 0): your all-reduces carried 547 elements "
        "for 435 elements of gradients. Launch each bucket once, when its last gradient "
        "arrives, and reset the count of ready gradients in finish() for the next step"
    )


def test_a_wait_or_a_blocking_all_reduce_inside_backward_is_named():
    log = good_log()
    log.insert(5, ("wait", 0, True, 0))
    hint = rule_fails(read, log)
    assert hint.startswith("waiting inside the hook: a handle was waited on while backward")
    assert hint.endswith("before the step (bucket_bytes=512, step 0)")
    log = good_log()
    log[4] = ("launch", 323, False, True)
    assert rule_fails(read, log).startswith(
        "waiting inside the hook: an all_reduce without async_op=True blocked while backward"
    )


def test_every_launch_after_backward_is_named():
    log = good_log()
    log[4], log[7] = ("launch", 323, True, False), ("launch", 112, True, False)
    assert rule_fails(read, log) == (
        "every all-reduce was launched after backward returned (bucket_bytes=512, step 0): "
        "launch them from the hooks, as each bucket fills, so that they overlap the rest of "
        "backward"
    )
    log[4] = ("launch", 323, True, True)  # one inside backward is enough for this rule
    assert read(log) == [323, 112]


def test_waits_stale_missing_after_finish_and_twice_are_named():
    log = good_log(step=1)
    log[-3] = ("wait", 0, False, 0)  # a handle of step 0 waited again in step 1
    assert rule_fails(read, log, 1) == (
        "a handle launched in step 0 was waited on again in step 1 (bucket_bytes=512): the "
        "list of handles was never cleared, so each step waits on every earlier step's handles "
        "too. Clear it in finish(), after the waits"
    )
    log = good_log()
    log.remove(("wait", 1, False, 0))
    log.append(("wait", 1, False, 0))  # after finish() returned: too late
    assert rule_fails(read, log) == (
        "1 of 2 handles were never waited on before finish() returned (bucket_bytes=512, step "
        "0): call handle.wait() on every one in finish(), before the gradients are read (the "
        "all-reduce may not be done yet)"
    )
    log = good_log()
    log[7] = ("launch", 112, True, False)  # launched in finish(), async, and never waited
    log.remove(("wait", 1, False, 0))
    assert rule_fails(read, log).startswith("1 of 2 handles were never waited on before finish()")
    log = good_log()
    log.insert(-1, ("wait", 0, False, 0))
    assert rule_fails(read, log) == (
        "the handle of all-reduce 0 was waited on 2 times (bucket_bytes=512, step 0): 3 waits "
        "for 2 launches. Wait on each handle once, in finish()"
    )


def check_buckets(launched, cap=512, log=None):
    record = {"numels": NUMELS, "names": NAMES}
    _check_buckets(launched, record, cap, 0, good_log() if log is None else named(log))


def test_buckets_by_both_rules_pass_and_each_wrong_filling_is_named():
    check_buckets([323, 112])
    log = [("ready",)] * 3 + [("launch",), ("ready",), ("launch",)] + [("ready",)] * 2
    check_buckets([67, 256, 112], log=log + [("launch",)])
    assert rule_fails(check_buckets, [323, 112], 268).startswith(
        "with bucket_bytes=268 (step 0) your buckets hold [323, 112] elements: a bucket closed "
        "only once it held MORE than bucket_bytes (>). DDP closes it once it holds "
        "bucket_bytes or more (>=), which gives [67, 256, 112]"
    )
    assert rule_fails(check_buckets, [435]) == (
        "with bucket_bytes=512 (step 0) your buckets hold [435] elements: the buckets were "
        "filled counting elements (numel), not bytes. A parameter takes p.numel() * "
        "p.element_size() bytes; in bytes the buckets are [323, 112]"
    )
    for forward in ([368, 67], [67, 368], [112, 256, 67]):  # >= and "before the cap"
        assert rule_fails(check_buckets, forward) == (
            f"buckets in forward order (bucket_bytes=512): your buckets hold {forward} elements, "
            "as if filled from the first layer; backward produces the last layer's gradients "
            "first, so fill them in reverse order of model.parameters(): [323, 112]"
        )
    # at 100 bytes, counted in elements: [323, 112], where bytes give [51, 272, 112]
    assert "counting elements (numel), not bytes" in rule_fails(check_buckets, [323, 112], 100)
    # at 267 bytes no running total is 267, so > gives the right buckets; [323, 112] is a
    # count in elements (and what closing at 269 bytes gives, a cap two bytes higher)
    assert rule_fails(check_buckets, [323, 112], 267) == (
        "with bucket_bytes=267 (step 0) your buckets hold [323, 112] elements: the buckets were "
        "filled counting elements (numel), not bytes. A parameter takes p.numel() * "
        "p.element_size() bytes; in bytes the buckets are [67, 256, 112]"
    )
    late = good_log()
    late.insert(4, late.pop(5))
    assert rule_fails(check_buckets, [323, 112], 512, late).startswith(
        "bucket 0 (bucket_bytes=512, step 0) was launched only after 5 gradients"
    )
    assert rule_fails(check_buckets, [112, 323]) == (
        "with bucket_bytes=512 (step 0) your all-reduces carried [112, 323] elements, in that "
        "order; buckets filled in reverse order of model.parameters(), each closed once it "
        "holds bucket_bytes or more, carry [323, 112]"
    )


def test_buckets_of_a_float64_model_counted_at_4_bytes_an_element_are_named():
    record = {"numels": NUMELS, "itemsize": 8, "names": NAMES}
    # in float64 (reverse order: 3, 48, 16, 256, 16, 96 elements of 8 bytes), 512-byte buckets
    log = [("ready",)] * 3 + [("launch",), ("ready",), ("launch",)] + [("ready",)] * 2
    _check_buckets([67, 256, 112], record, 512, 0, named([*log, ("launch",)]))
    assert rule_fails(_check_buckets, [323, 112], record, 512, 0, []) == (
        "with bucket_bytes=512 (step 0) your buckets hold [323, 112] elements, as if each took "
        "4 bytes, float32's; this model's take 8. A parameter takes p.numel() * "
        "p.element_size() bytes; in bytes the buckets are [67, 256, 112]. (Or the buckets were planned for an earlier float32 model of these shapes and kept, on "
        "the class or in a global: plan each instance's own in __init__)"
    )
    # at 210 bytes float32's buckets are [67, 256, 112], unlike float64's (and 5 bytes')
    assert rule_fails(_check_buckets, [67, 256, 112], record, 210, 1, []) == (
        "with bucket_bytes=210 (step 1) your buckets hold [67, 256, 112] elements, as if each "
        "took 4 bytes, float32's; this model's take 8. A parameter takes p.numel() * "
        "p.element_size() bytes; in bytes the buckets are [51, 272, 112]. (Or the buckets were planned for an earlier float32 model of these shapes and kept, on "
        "the class or in a global: plan each instance's own in __init__)"
    )
    # in float32 the same buckets are right
    _check_buckets(
        [323, 112], {"numels": NUMELS, "itemsize": 4, "names": NAMES}, 512, 0, good_log()
    )


def test_a_bucket_launched_after_a_later_gradient_is_named():
    launched_when_ready([323, 112], good_log(), 512, 0)  # at its 4th gradient
    log = good_log()
    log.insert(4, log.pop(5))  # the first bucket after the 5th gradient
    assert rule_fails(launched_when_ready, [323, 112], log, 512, 1) == (
        "bucket 0 (bucket_bytes=512, step 1) was launched only after 5 gradients were ready, "
        "though its last one was gradient 4: launch each bucket from the hook of its own last "
        "gradient, not later, so that it overlaps the rest of backward"
    )
    log = [("ready",)] * 6 + [("launch",), ("launch",)]  # the second bucket in time
    assert "bucket 0 " in rule_fails(launched_when_ready, [323, 112], log, 512, 0)
    log = [("ready",)] * 4 + [("launch",)] + [("ready",)] * 2 + [("launch",)]
    launched_when_ready([323, 112], log, 512, 0)


WHOLE, LOCAL = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 5.0])


def grads(got, world=2, local=LOCAL, first=None):
    """``got`` for the gradient of ``w``, after ``first`` for one of ``v`` (if any)."""
    names, step = ["w"], {"got": [got], "whole": [WHOLE], "local": [local]}
    if first is not None:
        names, step = ["v", "w"], {k: [first, *v] for k, v in step.items()}
    _compare_overlap_grads({"names": names, "steps": [step]}, world, 512, 0)


def test_each_wrong_gradient_is_named():
    grads(WHOLE.clone())
    grads(WHOLE * (1 + 5e-6))  # within rtol
    what = "w's gradient (bucket_bytes=512, step 0)"
    assert rule_fails(grads, None) == f"{what} is None after finish(): leave the average in p.grad"
    assert rule_fails(grads, WHOLE * 2) == (
        f"{what} is the sum over the ranks: forgetting to divide by dist.get_world_size() "
        "(before the all-reduce, or after it in finish())"
    )
    assert rule_fails(grads, WHOLE * 3, 3).startswith(f"{what} is the sum over the ranks")
    assert rule_fails(grads, LOCAL) == (
        f"{what} was never reduced (it is still this rank's own): a parameter never reduced. "
        "Put every parameter in a bucket, launch the last, partly filled bucket too, and copy "
        "the averaged buckets back into p.grad in finish()"
    )
    assert rule_fails(grads, WHOLE / 2) == f"{what} is divided by the world size twice"
    assert rule_fails(grads, WHOLE * 1.5, 3) == (
        f"{what} (3 ranks) is divided by 2, not by the world size: divide by dist.get_world_size()"
    )
    assert rule_fails(grads, torch.tensor([1.5, 2.0])) == (
        f"{what} is not the average over the ranks (largest difference 0.5): each p.grad must "
        "end as the sum over the ranks divided by the world size"
    )
    assert "not the average" in rule_fails(grads, WHOLE * (1 + 1e-4))
    assert "(largest difference 0.5)" in rule_fails(grads, torch.tensor([1.5, 2.0]), 3)
    # a right gradient first: the next one is still read
    assert "is divided by the world size twice" in rule_fails(grads, WHOLE / 2, 2, LOCAL, WHOLE)
    # a local gradient equal to the average is the average, not "never reduced"
    grads(WHOLE.clone(), local=WHOLE.clone())


def test_a_bucket_copied_back_before_its_wait_or_from_another_tensor_is_named():
    what = "w's gradient (bucket_bytes=512, step 0)"
    # copied back before handle.wait(): the bucket as launched, this rank's own / world
    assert rule_fails(grads, LOCAL / 2) == (
        f"{what} is this rank's own gradient divided by the world size: what its bucket held "
        "before the all-reduce was done. In finish(), handle.wait() first, then copy the "
        "averaged flat tensor back into p.grad"
    )
    assert "own gradient divided by the world size" in rule_fails(grads, LOCAL / 3, 3)
    # every gradient was sent, but p.grad is the local one: the result was never copied back
    step = {"got": [LOCAL], "whole": [WHOLE], "local": [LOCAL]}
    record = {"names": ["w"], "steps": [step], "numels": [2]}
    hint = rule_fails(_compare_overlap_grads, record, 2, 512, 0, [2])
    assert hint == (
        f"{what} is still this rank's own gradient, though every gradient was all-reduced: the "
        "all-reduce's result never reached p.grad. dist.all_reduce works in place on the "
        "tensor it is given: copy back that same tensor (not one made before it, as flat is "
        "when you all-reduce flat / world)"
    )
    # a bucket never sent: the gradient was never reduced
    assert "was never reduced" in rule_fails(_compare_overlap_grads, record, 2, 512, 0, [1])


def test_averages_split_back_in_another_order_are_named():
    what = "w's gradient (bucket_bytes=512, step 0)"
    assert rule_fails(grads, WHOLE.flip(0)) == (
        f"{what} holds averages, but other gradients' (or other places'): the flat buffer was "
        "filled in one order and split back in another. Copy back the all-reduced tensor in "
        "the order, and with the sizes, you concatenated it in (the bucket's own order, not "
        "the order the gradients arrived in)"
    )
    other = torch.tensor([7.0, 9.0])  # v's averages, copied into w's gradient
    step = {"got": [other, other.clone()], "whole": [other, WHOLE], "local": [other, LOCAL]}
    hint = rule_fails(_compare_overlap_grads, {"names": ["v", "w"], "steps": [step]}, 2, 512, 0)
    assert hint.startswith(f"{what} holds averages, but other gradients'")
    # one value from elsewhere, one from nowhere: not the average
    assert "is not the average" in rule_fails(grads, torch.tensor([2.0, 3.5]))


def test_float_noise_around_a_zero_gradient_is_the_average():
    # summed in another order, an average of 0 can come back as a few 1e-8: within atol=1e-7
    whole = torch.tensor([0.0, 2.0])
    step = {"got": [torch.tensor([5e-8, 2.0])], "whole": [whole], "local": [whole + 1]}
    _compare_overlap_grads({"names": ["w"], "steps": [step]}, 2, 512, 0)
    step["got"] = [torch.tensor([5e-7, 2.0])]
    with pytest.raises(CheckFailed, match="is not the average over the ranks"):
        _compare_overlap_grads({"names": ["w"], "steps": [step]}, 2, 512, 0)


# --- the three-rank model: layers registered in another order than forward runs them -------


def out_of_order_record():
    """OutOfOrderNet in float64: its names, numels, and the order backward's gradients arrive."""
    import torch.nn.functional as F

    from d2lgpu.checks._ch10_buckets import overlap_net

    model = overlap_net(torch.float64, out_of_order=True)
    names = [n for n, _ in model.named_parameters()]
    arrival = []
    for name, p in model.named_parameters():
        p.register_post_accumulate_grad_hook(lambda p, name=name: arrival.append(name))
    x, y = torch.randn(4, 6, dtype=torch.float64), torch.tensor([0, 1, 2, 0])
    F.cross_entropy(model(x), y).backward()
    numels = [p.numel() for p in model.parameters()]
    return {"names": names, "numels": numels, "itemsize": 8}, arrival


def ready_then(arrival, launches):
    """A step's log: the gradients in ``arrival`` order, and after the k-th, the launches
    ``launches[k]`` (numels), then backward's end."""
    log = []
    for k, name in enumerate(arrival):
        log.append(("ready", name))
        log += [("launch", n, True, True) for n in launches.get(k, ())]
    return [*log, ("backward returned",)]


def test_the_out_of_order_models_buckets_complete_out_of_their_order():
    from d2lgpu.checks._ch10_buckets import bucket_members, by_completion

    record, arrival = out_of_order_record()
    names, numels = record["names"], record["numels"]
    assert names == ["fc3.weight", "fc3.bias", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert arrival == [
        "fc3.bias", "fc3.weight", "fc2.bias", "fc2.weight", "fc1.bias", "fc1.weight"
    ]  # fmt: skip
    last_first = list(range(6))[::-1]
    sizes = [8 * numels[i] for i in last_first]
    buckets = [[last_first[i] for i in b] for b in bucket_members(sizes, 512)]
    assert [[names[i] for i in b] for b in buckets] == [
        ["fc2.bias", "fc2.weight"], ["fc1.bias", "fc1.weight", "fc3.bias"], ["fc3.weight"]
    ]  # fmt: skip
    order = by_completion(buckets, [names.index(n) for n in arrival])
    assert order == [buckets[2], buckets[0], buckets[1]]  # fc3.weight's bucket comes first
    assert by_completion([[0], [1]], [1]) == [[1], [0]], "one never ready goes last"


def test_on_the_out_of_order_model_launches_are_timed_by_their_own_gradients():
    record, arrival = out_of_order_record()
    # right: each bucket as its last gradient arrives (2nd, 4th and 6th): 21, 70, 66
    _check_buckets([21, 70, 66], record, 512, 0, ready_then(arrival, {1: [21], 3: [70], 5: [66]}))
    # the right buckets, held back to be launched in the order they were filled
    held = ready_then(arrival, {3: [70], 5: [66, 21]})
    assert rule_fails(_check_buckets, [70, 66, 21], record, 512, 2, held) == (
        "bucket 2 (bucket_bytes=512, step 2) was launched only after 6 gradients were ready, "
        "though its last one was gradient 2: launch each bucket from the hook of its own last "
        "gradient, not later, so that it overlaps the rest of backward"
    )
    # buckets filled in the order the gradients arrived: 24 + 3 + 7 + 63 ... closed at 512
    arrived = ready_then(arrival, {2: [94], 5: [63]})
    assert rule_fails(_check_buckets, [94, 63], record, 512, 1, arrived) == (
        "with bucket_bytes=512 (step 1) your buckets hold [94, 63] elements: filled in the order "
        "backward produced the gradients. That order depends on how forward uses the layers "
        "(here they are registered in another order than forward runs them); the rule is the "
        "reverse order of model.parameters(), fixed in __init__: [21, 70, 66], each launched "
        "as its last gradient arrives"
    )
    assert "fixed in __init__: [21, 70, 66], each launched" in rule_fails(
        _check_buckets, [94, 63], record, 512, 1, arrived
    )
    # in arrival order by the rule that never exceeds the cap: 24 + 3 + 7, 63, 9 + 54
    arrived = ready_then(arrival, {2: [31], 3: [63], 5: [63]})
    assert rule_fails(_check_buckets, [31, 63, 63], record, 512, 0, arrived).startswith(
        "with bucket_bytes=512 (step 0) your buckets hold [31, 63, 63] elements: filled in the "
        "order backward produced the gradients. That order depends on how forward uses"
    )


def test_a_bucket_launched_before_its_last_gradient_is_named():
    from d2lgpu.checks._ch10_buckets import early_launch

    record, arrival = out_of_order_record()
    timely = ready_then(arrival, {1: [21], 3: [70], 5: [66]})
    assert early_launch(record, timely, 512, 0) is None
    early = ready_then(arrival, {0: [66], 1: [21], 3: [70]})  # at fc3.bias, its last-listed
    assert early_launch(record, early, 512, 3) == (
        "a bucket of 66 elements (bucket_bytes=512, step 3) was launched after 1 gradient(s), "
        "before its fc1.bias's was ready: backward's order of gradients depends on how forward "
        "uses the layers, not on model.parameters(). Count each bucket's ready gradients and "
        "launch when the count reaches its number of parameters, not from the hook of the one "
        "you expect last"
    )
    # a size no bucket has (by either rule) is another mistake's, left to the other hints
    assert early_launch(record, ready_then(arrival, {0: [5]}), 512, 0) is None


def test_an_early_launch_is_found_among_the_buckets_of_either_rule_and_the_records_bytes():
    from d2lgpu.checks._ch10_buckets import early_launch

    record, arrival = out_of_order_record()
    # 24 elements, [fc3.bias, fc3.weight], is a bucket only of the rule that never exceeds
    # the cap; launched when only fc3.bias was ready
    hint = early_launch(record, ready_then(arrival, {0: [24]}), 512, 0)
    assert hint is not None and hint.startswith("a bucket of 24 elements"), hint
    # a record without its bytes an element is float32's: no bucket of 16 elements at 4
    # bytes (5 bytes would close one before the cap), so a launch of 16 is another mistake's
    float32 = {"numels": NUMELS, "names": NAMES}
    assert early_launch(float32, named([("ready",), ("launch", 16, True, True)]), 512, 0) is None


# --- _overlap_checks: a rank's whole record, as the ranks return it --------------------------


def overlap_checks(record, log, got=None):
    """``_overlap_checks`` on one rank's ``record`` (its names, numels and maybe itemsize)
    whose step ``k`` logged ``log(k)`` (entries as step_logs leaves them) and left ``got`` in
    each p.grad (the average, WHOLE, where None; this rank's own is LOCAL), on 2 ranks."""
    n = len(record["names"])
    steps = [
        {"log": log(k), "got": [WHOLE if got is None else got] * n, "whole": [WHOLE] * n,
         "local": [LOCAL] * n}
        for k in range(STEPS)
    ]  # fmt: skip
    setup = {"type": "Mine", "finish": True, "hooks": 2, "unhooked": []}
    _overlap_checks([{**record, "setup": setup, "steps": steps}], 2, 512)


def launches(*numels):
    """A step's log with all-reduces of ``numels`` inside backward (no more is read)."""
    return lambda step: [("launch", n, True, True) for n in numels] + [("backward returned",)]


def test_an_extra_all_reduce_is_named_against_the_buckets_of_the_records_bytes():
    # float64: [51, 16, 256, 16, 96] are the buckets that never exceed 512 bytes (at 4 bytes
    # an element there is no such bucket of 51 elements: a bucket sent twice)
    record = {"names": NAMES, "numels": NUMELS, "itemsize": 8}
    assert rule_fails(overlap_checks, record, launches(51, 16, 256, 16, 96, 5)) == (
        "6 all-reduces for 5 buckets (bucket_bytes=512, step 0): the all-reduce of 5 element(s) "
        "is not a bucket (the buckets hold [51, 16, 256, 16, 96]), an extra collective. Each "
        "step sends each bucket once, and nothing else"
    )
    # a record without its bytes an element is float32's: [67, 256, 112] never exceed 512
    # bytes (at 5 bytes the 112 would be 16 and 96: a bucket sent twice)
    record = {"names": NAMES, "numels": NUMELS}
    assert rule_fails(overlap_checks, record, launches(67, 256, 112, 5)) == (
        "4 all-reduces for 3 buckets (bucket_bytes=512, step 0): the all-reduce of 5 element(s) "
        "is not a bucket (the buckets hold [67, 256, 112]), an extra collective. Each step "
        "sends each bucket once, and nothing else"
    )


def test_a_rank_whose_gradients_stayed_its_own_though_all_were_sent_is_named():
    record = {"names": NAMES, "numels": NUMELS}
    overlap_checks(record, good_log)  # right: every step passes
    # every step's all-reduces carried all 435 elements, yet p.grad holds this rank's own
    assert rule_fails(overlap_checks, record, good_log, LOCAL) == (
        "p5's gradient (bucket_bytes=512, step 0) is still this rank's own gradient, though "
        "every gradient was all-reduced: the all-reduce's result never reached p.grad. "
        "dist.all_reduce works in place on the tensor it is given: copy back that same tensor "
        "(not one made before it, as flat is when you all-reduce flat / world)"
    )


def test_a_wrong_gradient_after_a_bucket_launched_early_is_named_by_the_early_launch():
    record, arrival = out_of_order_record()

    def early(step):  # the 66-element bucket launched at fc3.bias, before fc1.bias's
        waits = [("wait", i, False, step) for i in range(3)]
        return [*ready_then(arrival, {0: [66], 1: [21], 3: [70]}), *waits, ("finish returned",)]

    assert rule_fails(overlap_checks, record, early, LOCAL) == (
        "a bucket of 66 elements (bucket_bytes=512, step 0) was launched after 1 gradient(s), "
        "before its fc1.bias's was ready: backward's order of gradients depends on how forward "
        "uses the layers, not on model.parameters(). Count each bucket's ready gradients and "
        "launch when the count reaches its number of parameters, not from the hook of the one "
        "you expect last"
    )


def test_a_bucket_sent_in_another_dtype_than_the_gradients_is_named():
    from d2lgpu.checks._ch10_buckets import check_launch_dtype
    from d2lgpu.checks._kit_collectives import Call
    from d2lgpu.grading import CheckFailed

    def launch(kind, nbytes, shape=(4,), event="launch"):
        return ("call", event, Call(0, kind, shape, nbytes, True), True)

    right = [launch("all_reduce", 32), ("hook", 0), launch("all_reduce", 32, event="wait")]
    check_launch_dtype([right, right], 8, 512)  # 8 bytes an element, as the gradients
    check_launch_dtype([[launch("broadcast", 16), launch("all_reduce", 0, (0,))]], 8, 512)
    check_launch_dtype([[launch("all_reduce", 16, event="wait")]], 8, 512)  # a wait: not a send
    for late in ([("hook", 0), launch("all_reduce", 16)], [launch("all_reduce", 32, (2, 4))]):
        with pytest.raises(CheckFailed, match="with 4 bytes an element"):  # after a hook; 2-D
            check_launch_dtype([late], 8, 512)
    with pytest.raises(CheckFailed) as failed:
        check_launch_dtype([right, [launch("all_reduce", 16)]], 8, 512)
    assert str(failed.value) == (
        "a bucket was all-reduced with 4 bytes an element, but the model's gradients take 8 "
        "(bucket_bytes=512, step 1): its flat tensor was made in another dtype than the "
        "gradients' (torch.zeros(n) and torch.empty(n) make float32 unless told otherwise), "
        "which rounds them on the way. Make it in the gradients' dtype: torch.cat of their "
        "reshape(-1)s, or dtype=p.grad.dtype"
    )


def test_what_a_first_instance_changed_outside_itself_is_named():
    from d2lgpu.checks._ch10_by_hand import after_first, changed_by, kept_by_class

    namespace: dict = {}
    exec(  # noqa: S102 (a learner's cell: a class, a module global, a default argument)
        "import torch\n"
        "PLANS = {}\n"
        "LIMIT = 3\n"
        "class Kept:\n"
        "    made = 0\n"
        "    shape = (2, 3)\n"
        "    def __init__(self, model, cap, seen=[]):\n"
        "        type(self).made += 1\n"
        "        PLANS[cap] = len(seen)\n"
        "        seen.append(cap)\n"
        "        self.own = [cap]\n"
        "def build(model, cap):\n"
        "    return Kept(model, cap)\n",
        namespace,
    )
    kept = kept_by_class(namespace["Kept"])
    assert {"Kept.made", "Kept.shape", "PLANS", "LIMIT", "Kept.__init__'s default seen"} <= set(
        kept
    )
    assert "torch" not in kept and "build" not in kept and "Kept" not in kept
    assert changed_by(lambda: namespace["Kept"](None, 5), namespace["Kept"]) == [
        "Kept.__init__'s default seen",
        "Kept.made",
        "PLANS",
    ]
    # a function that builds one: its own defaults and its module's globals
    assert changed_by(lambda: namespace["build"](None, 6), namespace["build"]) == ["PLANS"]

    class Clean:
        def __init__(self, model, cap):
            self.cap = cap

    assert changed_by(lambda: Clean(None, 1), Clean) == []
    assert after_first([], "X") == ""
    assert after_first(["Kept.made", "PLANS"], "Kept (over another model)") == (
        ". This run built a first Kept (over another model), in the same processes, before this "
        "one, and building it changed Kept.made, PLANS: what a class attribute, a module's "
        "global or a function's default argument keeps, not the instance, carries over to the "
        "next instance. Keep it on self"
    )


def test_round_21_a_poll_in_place_of_a_wait_and_a_host_read_in_a_hook_are_named():
    from d2lgpu.checks import _ch10_overlap
    from d2lgpu.checks._ch10_averaging import host_read_hint

    flat = Call(7, "all_reduce", (2, 3), 24, True)
    raw = [[("call", "launch", flat, True), ("call", "polled", flat, False)]]
    assert step_logs(raw) == [[("launch", 6, True, True), ("wait", 0, False, 0, True)]]
    log = good_log()
    log[7] = ("wait", 1, False, 0, True)  # is_completed() answered True: a poll
    said = rule_fails(read, log)
    assert said.startswith("finish() polled handle.is_completed() (or a future's done())")
    assert "busy loop" in said and "Call handle.wait() on every handle in finish()" in said
    read(good_log())  # the waits of a right step
    said = host_read_hint("bool()", "a hook", "in backward (step 0)")
    assert said.startswith("a hook read a tensor's value on the host (bool(), as `if not")
    assert "in backward (step 0): on a GPU each read is a sync" in said
    assert "lambda p, i=i" in _ch10_overlap._EARLY and "late-bound closure" in _ch10_overlap._EARLY


def test_round_21_host_reads_are_seen_inside_autograds_hooks():
    from d2lgpu.checks._ch10_averaging import host_reads

    model = torch.nn.Linear(2, 2)

    def hook(p):
        if not torch.isfinite(p.grad).all():  # a host read, in backward
            raise FloatingPointError

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(hook)
    with host_reads() as reads:
        model(torch.ones(1, 2)).sum().backward()
    assert reads[:1] == ["bool()"]
    with host_reads() as reads:
        torch.ones(2).sum()  # no read of a value
    assert reads == [] and bool(torch.ones(1))  # the methods put back
