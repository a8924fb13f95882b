"""10.shard_optimizer's rules on the ranks' records, called in this process on hand-built
records: what the answer built, zero_grad, step()'s collectives, the optimizer state each rank
holds, the parameters against DDP with Adam, and the hints a rank raises. The checks that
start gloo ranks are in tests/test_checks_ch10_ddp_by_hand.py; here each test takes well
under a second."""

import pytest
import torch
from grading_helpers import rule_fails

from d2lgpu.checks import _ch10_refused as refused
from d2lgpu.checks import _ch10_zero as zero
from d2lgpu.checks._ch10_zero import ADAM_KWARGS, param_bytes
from d2lgpu.checks._ch10_zero_compare import compare_zero
from d2lgpu.checks._ch10_zero_kept import KeptScan, compare_kept, contains, mix_of, room_kept
from d2lgpu.checks._ch10_zero_rules import (
    compare_calls,
    compare_given,
    compare_held,
    compare_state,
    compare_zero_grad,
    setup_error,
)
from d2lgpu.checks._kit import patched, tensors_alive
from d2lgpu.checks._kit_collectives import Call
from d2lgpu.checks._ranks import RuleBroken

PARAM = 16 * 16 * 4  # bytes of each of the 8 parameters
STATE = 2 * PARAM  # Adam's exp_avg and exp_avg_sq of one parameter


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """torch on one thread: a thread pool in pytest's process hangs a mutation run's forks."""


def test_setup_error_names_the_first_missing_method():
    assert setup_error({"type": "Mine", "missing": []}) is None
    assert setup_error({"type": "Mine", "missing": ["step", "zero_grad"]}) == (
        "Mine has no method step()"
    )
    assert setup_error({"type": "Mine", "missing": ["zero_grad"]}) == (
        "Mine has no method zero_grad()"
    )
    # a function that returns nothing in place of the class: named as such, not by a method
    assert setup_error({"type": "NoneType", "missing": ["step", "zero_grad"]}) == (
        "calling your answer gave None, not an optimizer: pass the class ShardedOptimizer "
        "itself (or a function that returns one), whose step() and zero_grad() run each step"
    )


def test_gradients_left_after_zero_grad_are_named_from_step_1_on():
    compare_zero_grad([{"left": [[0, 1], [], []]}, {"left": [[2], [], []]}])  # before step 0
    assert rule_fails(compare_zero_grad, [{"left": [[], [], []]}, {"left": [[], [], [4, 5]]}]) == (
        "after zero_grad() rank 1 still holds gradients of parameters [4, 5] (step 2): backward "
        "adds the new gradients to them, so what the next step gives differs from DDP with "
        "Adam. zero_grad() must clear every parameter's gradient (p.grad = None for all of "
        "them), not only this rank's own"
    )
    assert "rank 0 still holds gradients of parameters [3] (step 1)" in rule_fails(
        compare_zero_grad, [{"left": [[], [3], [3]]}, {"left": [[], [7], []]}]
    )


def test_a_process_group_made_at_every_step_is_named_and_one_made_once_is_not():
    sent = broadcasts()
    assert rule_fails(compare_calls, [{"calls": [sent] * 3, "groups": [1, 1, 2]}]) == (
        "step() created a new process group (dist.new_group) at every step (rank 0: 1, 1, 2 in "
        "steps 0 to 2): every rank takes part in setting up a group, a collective set-up at "
        "each step that costs more than the broadcasts, and each group lives on (its memory, "
        "its connections). Broadcast over the default group (leave out group=), or make a "
        "group once, in __init__"
    )
    for groups in ([1, 0, 0], [0, 0, 0], []):  # a group made at the first step only: once
        compare_calls([{"calls": [sent] * 3, "groups": groups}])


def test_a_flat_buffer_wider_than_the_parameters_is_named_not_an_extra_collective():
    flat64 = [Call(i, "broadcast", (4 * 256,), 2 * 4 * PARAM, False) for i in range(2)]
    assert rule_fails(compare_calls, [{"calls": [flat64]}]) == (
        f"step() sent {16 * PARAM} bytes in 2 collectives for {8 * PARAM} bytes of parameters "
        "(rank 0, step 0), though as many elements as the parameters hold: the buffers are of "
        "a wider dtype than the parameters' float32 (float64?). Build each flat buffer in the "
        "parameters' dtype (torch.cat of p.detach().reshape(-1))"
    )
    # the model in float64 (UNEVEN: 2176 elements, 17408 bytes), buffers of 16 bytes an element
    wide = [Call(0, "broadcast", (2176,), 2 * 17408, False)]
    assert rule_fails(compare_calls, [{"calls": [wide]}], zero.UNEVEN) == (
        "step() sent 34816 bytes in 1 collectives for 17408 bytes of parameters (rank 0, step "
        "0), though as many elements as the parameters hold: the buffers are of a wider dtype "
        "than the parameters' float64. Build each flat buffer in the parameters' dtype "
        "(torch.cat of p.detach().reshape(-1))"
    )
    compare_calls([{"calls": [[Call(0, "broadcast", (2176,), 17408, False)]]}], zero.UNEVEN)
    flat32 = [Call(i, "broadcast", (4 * 256,), 4 * PARAM, False) for i in range(2)]
    compare_calls([{"calls": [flat32]}])
    assert "an extra collective" in rule_fails(compare_calls, [{"calls": [flat32 + flat32[:1]]}])


def broadcasts(n=8, kind="broadcast"):
    return [Call(i, kind, (16, 16), PARAM, False) for i in range(n)]


def test_step_collectives_send_each_parameter_once_and_reduce_nothing():
    assert param_bytes() == 8 * PARAM
    compare_calls([{"calls": [broadcasts(), broadcasts()]}, {"calls": [broadcasts(), []]}])
    assert rule_fails(compare_calls, [{"calls": [broadcasts()]}, {"calls": [broadcasts(9)]}]) == (
        f"step() sent {9 * PARAM} bytes in 9 collectives for {8 * PARAM} bytes of parameters "
        "(rank 1, step 0): an extra collective. Send each parameter once, from its owner"
    )
    barrier = Call(8, "barrier", (), 0, False)
    assert rule_fails(
        compare_calls, [{"calls": [broadcasts()]}, {"calls": [broadcasts() + [barrier]]}]
    ) == (
        "step() called a barrier (rank 1, step 0): an extra collective, which makes every rank "
        "wait for the slowest at every step and sends nothing. The broadcasts already leave "
        "every rank with the same parameters: leave it out"
    )
    for kind in ("all_reduce", "reduce_scatter", "reduce"):
        calls = [[], broadcasts(1) + broadcasts(1, kind)]
        hint = rule_fails(compare_calls, [{"calls": calls}])
        assert hint == (
            f"step() called a{'n' * (kind[0] == 'a')} {kind} of shape (16, 16) ({PARAM} bytes) "
            "(rank 0, step 1): an extra collective. The gradients are already averaged before "
            "step(), as DDP does (the checker did it); ZeRO-1's step only broadcasts each "
            "updated parameter from its owner"
        )


def state_record(owned, optimizers=1):
    return {"state": {i: STATE for i in owned}, "optimizers": optimizers}


def test_optimizer_state_on_one_rank_each_and_one_nth_of_the_whole():
    numels = [256] * 8
    compare_state([state_record(range(4)), state_record(range(4, 8))], 2, numels)
    compare_state([state_record([i, i + 4]) for i in range(4)], 4, numels)
    # torch.optim.Adam by name on every rank: no optimizer the checker counts
    hint = rule_fails(compare_state, [state_record([], 0), state_record([], 0)], 2, numels)
    assert hint == (
        "no optimizer was built from optimizer_cls on any rank: build this rank's optimizer as "
        "optimizer_cls(its_own_params, **kwargs), with the class the checker passes (it counts "
        "the optimizer's state), not torch.optim.Adam by name"
    )
    # a world size of 2 written in, on 4 ranks, where a rank that owns nothing builds nothing
    written_in = [state_record(range(4)), state_record(range(4, 8)), *[state_record([], 0)] * 2]
    assert rule_fails(compare_state, written_in, 4, numels) == (
        "ranks 2, 3 of 4 built no optimizer, as if owning no parameter, though the model's 8 "
        "parameters leave every one of 4 ranks some: is the world size, 2, written in? Give "
        "owners over dist.get_world_size() ranks"
    )
    unbalanced = [state_record(range(6)), state_record([], 0), state_record([6, 7])]
    assert rule_fails(compare_state, unbalanced, 3, numels) == (
        "rank 1 of 3 built no optimizer, as if owning no parameter, though the model's 8 "
        "parameters leave every one of 3 ranks some: the owners are unbalanced: give each "
        "parameter to the rank that owns the fewest bytes so far, and add its bytes to that "
        "rank's count"
    )
    one_owner = [state_record(range(8)), state_record([], 0), state_record([], 0)]
    assert rule_fails(compare_state, one_owner, 3, numels) == (
        "rank 0 holds the optimizer state of all 8 parameters, and ranks 1, 2 built no "
        "optimizer (owning none): share the parameters out, about 1/3 of their bytes to each "
        "rank (a greedy choice must add each parameter's bytes to the load of the rank that "
        "gets it)"
    )
    assert rule_fails(compare_state, one_owner[:2], 2, numels).startswith(
        "rank 0 holds the optimizer state of all 8 parameters, and rank 1 built no optimizer "
        "(owning none): share the parameters out, about 1/2 of their bytes"
    )
    stranger = state_record(range(4))
    stranger["state"][-1] = 24
    assert rule_fails(compare_state, [stranger, state_record(range(4, 8))], 2, numels) == (
        "an optimizer was given (or holds state for) a tensor that is not one of the model's "
        "parameters: p.data, p.detach() or a copy (a float32 master of a float64 parameter "
        "rounds it) is another tensor, whose .grad backward never sets. Build optimizer_cls over "
        "the parameters themselves"
    )
    given = [{"held": [[0, 1, -1]]}, {"held": [[2, 3]]}]  # p.data: no index of the model's
    assert rule_fails(compare_given, given) == rule_fails(
        compare_state, [stranger, state_record(range(4, 8))], 2, numels
    )
    assert compare_given([{"held": [[0, 1]]}, {"held": [[2, 3]]}, {"setup": {}}]) is None
    assert rule_fails(compare_state, [state_record(range(8))] * 2, 2, numels) == (
        "parameter 0's optimizer state is on ranks [0, 1] (2 ranks): every rank holds the "
        "whole optimizer state, as without sharding: give each rank's optimizer_cls only the "
        "parameters that rank owns"
    )
    backwards = [{"state": {5: STATE, 1: STATE}, "optimizers": 1}] * 2  # the lowest named
    assert rule_fails(compare_state, backwards, 2, numels).startswith(
        "parameter 1's optimizer state"
    )
    some = [state_record([0, 4]), state_record([1, 4]), state_record([2, 6]), state_record([7])]
    assert rule_fails(compare_state, some, 4, numels) == (
        "parameter 4's optimizer state is on ranks [0, 1] (4 ranks): give each rank's "
        "optimizer_cls only the parameters that rank owns"
    )
    assert rule_fails(
        compare_state, [state_record(range(5)), state_record(range(5, 8))], 2, numels
    ) == (
        f"rank 0 holds {5 * STATE} bytes of optimizer state, of {8 * STATE} in all over 2 "
        f"ranks: 1/n is {4 * STATE}. Balance the shards by bytes (give each parameter to the "
        "rank holding the fewest bytes so far)"
    )


def test_shares_of_unequal_parameters_are_held_to_one_nth_within_the_largest_parameter():
    # 2 ranks, parameters of 256, 256, 128 and 128 elements: a greedy choice in the order 0,
    # 2, 3, 1 puts both 256s on one rank, so no split is held to 1/n exactly; a share a whole
    # largest parameter away from 1/n is named
    numels = [256, 256, 128, 128]

    def sized(owned):
        return {"state": {i: 8 * numels[i] for i in owned}, "optimizers": 1}

    compare_state([sized([0, 2]), sized([1, 3])], 2, numels)
    compare_state([sized([0, 1]), sized([2, 3])], 2, numels)
    assert rule_fails(compare_state, [sized([0, 1, 2]), sized([3])], 2, numels) == (
        "rank 0 holds 5120 bytes of optimizer state, of 6144 in all over 2 ranks: 1/n is 3,072, "
        "within the largest parameter's 2048. Balance the shards by bytes (give each parameter "
        "to the rank holding the fewest bytes so far)"
    )
    # the same count on every rank, but not the same bytes: owners given by index
    alternating = [256, 16] * 4
    by_index = [{"state": {i: 8 * alternating[i] for i in range(r, 8, 2)}, "optimizers": 1}
                for r in (0, 1)]  # fmt: skip
    assert (
        "owners given by index (i % world), by consecutive shares of the count, or by a load "
        "that adds 1 or p.element_size() per parameter, balance the count, not the bytes"
    ) in rule_fails(compare_state, by_index, 2, alternating)
    # UNEVEN's order (weights W, biases b: WWWWbWbWbWbWbbbb): owners by index and consecutive
    # halves both give one rank 6 weights and the other 2, each 8 parameters
    order = [256 if c == "W" else 16 for c in zero.UNEVEN_ORDER]
    assert order == zero.UNEVEN.numels()
    halves = [{"state": {i: 16 * order[i] for i in part}, "optimizers": 1}
              for part in (range(8), range(8, 16))]  # fmt: skip
    by_index = [{"state": {i: 16 * order[i] for i in range(r, 16, 2)}, "optimizers": 1}
                for r in (0, 1)]  # fmt: skip
    for records in (halves, by_index):
        assert "by consecutive shares of the count" in rule_fails(
            compare_state, records, 2, order, 8
        )
    # in float64, Adam's state takes 16 bytes an element
    compare_state(
        [{"state": {i: 16 * numels[i] for i in o}, "optimizers": 1} for o in ([0, 2], [1, 3])],
        2, numels, 8,
    )  # fmt: skip
    # 8 equal parameters over 3 ranks: 3, 3 and 2 pass; 4, 2 and 2 are named, saying so
    numels = [256] * 8
    compare_state(
        [state_record([0, 1, 2]), state_record([3, 4, 5]), state_record([6, 7])], 3, numels
    )
    uneven = [state_record([0, 1, 2, 3]), state_record([4, 5]), state_record([6, 7])]
    assert rule_fails(compare_state, uneven, 3, numels) == (
        f"rank 0 holds {4 * STATE} bytes of optimizer state, of {8 * STATE} in all over 3 ranks: "
        f"1/n is {8 * STATE / 3:,.0f}, so each rank holds the bytes of 2 or 3 parameters. "
        "Balance the shards by bytes (give each parameter to the rank holding the fewest bytes "
        "so far)"
    )


def held_record(given, peaks):
    return {"held": [given] * 3, "peak": peaks}


def test_parameters_held_by_several_ranks_during_a_step_are_named():
    mine, yours = held_record([0, 1, 2, 3], [{0: STATE}] * 3), held_record([4, 5, 6, 7], [])
    compare_held([mine, yours], 2)  # a peak not recorded for a step reads as none
    hint = rule_fails(compare_held, [held_record([0, 1, 2, 3, 4], []), yours], 2)
    assert hint == (
        "after step 0 rank 0's optimizer holds parameters [4] that other ranks' optimizers "
        "hold too (2 ranks): every parameter's optimizer state lived on several ranks during "
        "the step, even if it was deleted after. Build optimizer_cls over this rank's own "
        "parameters only"
    )
    # given its own only, but the state of parameter 5 built on both during step 1
    mine = held_record([0, 1, 2, 3], [{}, {1: STATE, 5: STATE}, {}])
    yours = held_record([4, 5, 6, 7], [{}, {5: STATE, 6: STATE}, {}])
    hint = rule_fails(compare_held, [mine, yours], 2)
    assert hint.startswith("after step 1 rank 0's optimizer holds parameters [5] that other")


def test_an_empty_share_names_a_world_written_in_or_unbalanced_owners():
    error = ValueError("optimizer got an empty parameter list")
    assert refused.empty_share_hint(2, 4, error) == (
        "rank 2 of 4 owns no parameter (optimizer_cls raised ValueError: optimizer got an "
        "empty parameter list), though the model's 8 parameters leave every one of 4 ranks "
        "some: is the world size, 2, written in? Give owners over dist.get_world_size() ranks"
    )
    hint = refused.empty_share_hint(1, 2, error)
    assert hint.startswith("rank 1 of 2 owns no parameter")
    assert hint.endswith(
        "some: the owners are unbalanced: give each parameter to the rank that owns the "
        "fewest bytes so far, and add its bytes to that rank's count"
    )
    with pytest.raises(RuleBroken) as raised:
        refused.zero_redundancy_used(object(), lr=0.1)
    assert str(raised.value) == (
        "your ShardedOptimizer builds torch.distributed.optim.ZeroRedundancyOptimizer: that is "
        "PyTorch's own ZeRO-1, and the exercise is to build it by hand. Give each parameter an "
        "owner, build optimizer_cls over this rank's own, step it, and broadcast each "
        "parameter from its owner"
    )


def test_state_bytes_count_each_parameters_moments_on_every_optimizer(monkeypatch):
    params = list(zero.zero_net().parameters())
    stranger = torch.zeros(3, requires_grad=True)
    first = torch.optim.Adam([params[0], params[1], stranger], lr=0.1)
    second = torch.optim.Adam([params[1]], lr=0.1)
    idle = torch.optim.Adam([params[5]], lr=0.1)  # never stepped: no state
    for p in (*params, stranger):
        p.grad = torch.ones_like(p)
    first.step()
    second.step()
    monkeypatch.setattr(zero, "_OPTIMIZERS", [first, second, idle])
    assert zero._state_bytes(params) == {0: STATE, 1: 2 * STATE, -1: 24}  # no step counters
    assert zero._held_params(params) == [-1, 0, 1, 5]


def zero_records(params, world=2, sent=(8 * PARAM, 8 * PARAM), other=None, calls=None):
    calls = broadcasts() if calls is None else calls
    first = {"params": params, "sent": [sent] * 3, "calls": [calls] * 3}
    rest = {"params": params if other is None else other, "sent": [sent] * 3, "calls": [calls] * 3}
    return [first] + [rest] * (world - 1)


def test_parameters_equal_to_ddp_with_adam_pass_on_every_rank():
    for world in (2, 4):
        compare_zero(zero_records(zero.zero_reference(world), world), world)


def test_a_rank_that_holds_rank_0s_values_in_other_places_is_named_as_packed_in_another_order():
    ref = zero.zero_reference(2)
    other = [list(ps) for ps in ref]
    flat = torch.cat([t.reshape(-1) for t in ref[0]]).roll(5)  # slices at other offsets
    other[0] = [part.view_as(t) for part, t in zip(flat.split(256), ref[0], strict=True)]
    assert rule_fails(compare_zero, zero_records(ref, other=other), 2) == (
        "after step 0 rank 1's parameter 0 differs from rank 0's (2 ranks), though it holds "
        "every value rank 0 holds, in other places: a flat buffer packed in one order and "
        "unpacked in another (by size, by owner) copies each slice into another parameter. "
        "Pack and unpack in the same order, the order of params"
    )


def test_ranks_that_disagree_are_named_by_what_step_sent():
    ref = zero.zero_reference(2)
    other = [list(ps) for ps in ref]
    other[1][3] = other[1][3] + 1
    all_sent, before = (8 * PARAM, 8 * PARAM), (8 * PARAM, 0)
    hint = rule_fails(compare_zero, zero_records(ref, sent=all_sent, other=other), 2)
    assert hint == (
        f"after step 1 rank 1's parameter 3 differs from rank 0's (2 ranks), though step() sent "
        f"{8 * PARAM} bytes, every parameter's: what a rank receives never reached its "
        "parameters. Broadcast p.data itself, or, for a flat buffer, copy it back into the "
        "parameters after the broadcast"
    )
    hint = rule_fails(
        compare_zero, zero_records(ref, sent=(8 * PARAM, 8 * PARAM - 1), other=other), 2
    )
    assert hint.endswith("Step first, then broadcast")
    hint = rule_fails(compare_zero, zero_records(ref, sent=before, other=other), 2)
    assert hint.endswith(", before the optimizer stepped: the others received the values from "
                         "before the step. Step first, then broadcast")  # fmt: skip
    hint = rule_fails(compare_zero, zero_records(ref, sent=(8 * PARAM - 1, 0), other=other), 2)
    assert hint == (
        "after step 1 rank 1's parameter 3 differs from rank 0's (2 ranks): after the sharded "
        "step broadcast every parameter from the rank that owns it (dist.broadcast(p.data, "
        "src=owner)), so that all ranks hold the same parameters"
    )


def test_parameters_unpacked_in_another_order_are_named():
    # shares kept as sets: each rank packs and unpacks the flat buffer in its own order
    ref = zero.zero_reference(2)
    other = [list(ps) for ps in ref]
    other[0][2], other[0][4] = ref[0][4], ref[0][2]
    assert rule_fails(compare_zero, zero_records(ref, other=other), 2) == (
        "after step 0 rank 1's parameter 2 holds rank 0's parameter 4 (2 ranks): the values "
        "reached other parameters than the ones they were sent for, as when the shares are "
        "ordered differently on each rank (a set, a dict keyed by id(), a sort by id() or "
        "data_ptr(): addresses differ from process to process). Keep each owner's share as a "
        "list in the order of params, the same on every rank, and unpack it in that order"
    )


def test_ranks_that_chose_owners_each_in_its_own_order_are_named():
    # a set of the parameters, on ranks that happened to end with the same values (CI saw it)
    ref, initial = zero.zero_reference(2), [p.detach() for p in zero.zero_net().parameters()]
    unchanged = [list(ps) for ps in ref]
    unchanged[0][2] = initial[2]
    records = zero_records(unchanged)
    records = [
        {**records[0], "held": [[0, 1, 4, 6]] * 3},
        {**records[1], "held": [[1, 3, 5, 7]] * 3},
    ]
    assert rule_fails(compare_zero, records, 2) == (
        "at step 0 (2 ranks) the ranks disagree on who owns what: parameters [1] went to "
        "several ranks' optimizers and [2] to none (rank 0's [0, 1, 4, 6]; rank 1's "
        "[1, 3, 5, 7]). Each rank chose owners from its own order of the parameters, as a "
        "set, a dict keyed by id(), or a sort by id() or data_ptr() gives: addresses differ "
        "from process to process. Give owners in the order of params, the same on every rank"
    )
    # owners that partition the parameters leave the hint to what the values show
    records[1]["held"] = [[2, 3, 5, 7]] * 3
    assert rule_fails(compare_zero, records, 2).startswith("parameter 2 never changed in step 0")
    # and ranks that differ from each other are named so too, before what step() sent
    other = [list(ps) for ps in ref]
    other[1][3] = other[1][3] + 1
    records = zero_records(ref, other=other)
    records = [
        {**records[0], "held": [[0, 1, 4, 6]] * 3},
        {**records[1], "held": [[1, 3, 5, 7]] * 3},
    ]
    assert rule_fails(compare_zero, records, 2).startswith("at step 1 (2 ranks) the ranks disagree")


def test_wrong_parameters_are_named_for_what_they_equal():
    ref, initial = zero.zero_reference(2), [p.detach() for p in zero.zero_net().parameters()]
    unchanged = [list(ps) for ps in ref]
    unchanged[0][2] = initial[2]
    assert rule_fails(compare_zero, zero_records(unchanged), 2).startswith(
        "parameter 2 never changed in step 0 (2 ranks): some rank must own it"
    )
    fresh = zero.zero_reference(2, keep_state=False)
    assert rule_fails(compare_zero, zero_records(fresh), 2) == (
        "parameter 0 after step 1 is what a new Adam would give: Adam's state (its moments) "
        "was lost between steps. Build each rank's optimizer once, in __init__, and keep it"
    )
    for kwargs, step, what in (
        ({}, 0, "Adam's defaults: none of the keyword arguments were passed on"),
        # Adam's first step is lr * sign(g) whatever the betas: lr alone shows from step 1
        ({"lr": 0.01}, 1, "Adam with lr alone: the other keyword arguments were dropped"),
        (
            ADAM_KWARGS[4],
            0,
            f"Adam with {ADAM_KWARGS[4]}, the keyword arguments of another case: values written in",
        ),
        # the linear scaling rule, where the gradients are averaged already (round 28)
        (
            {**ADAM_KWARGS[2], "lr": ADAM_KWARGS[2]["lr"] * 2},
            0,
            "Adam with lr times the world size (2): the gradients reach step() averaged over "
            "the ranks already, so the learning rate is the one given, whatever the number of "
            "ranks",
        ),
    ):
        got = zero.zero_reference(2, kwargs=kwargs)
        assert rule_fails(compare_zero, zero_records(got), 2).startswith(
            f"parameter 0 after step {step} (2 ranks) is what {what}"
        )
    assert (
        "This case passes {'lr': 0.02, 'weight_decay': 0.01}: build optimizer_cls(own_params, **kwargs) with the kwargs ShardedOptimizer received"
        in rule_fails(
            compare_zero, zero_records(zero.zero_reference(4, kwargs=ADAM_KWARGS[2]), 4), 4
        )
    )
    off = [[p + 1e-3 for p in ps] for ps in ref]
    assert rule_fails(compare_zero, zero_records(off), 2) == (
        "parameter 0 after step 0 (2 ranks) differs from DDP with Adam by 0.001 (more than "
        "1e-6): each parameter must be stepped by exactly one rank, with the averaged "
        "gradient, then broadcast from that rank"
    )
    # every value there, in other parameters: packed in one order, unpacked in another
    swapped = [[ps[1], ps[0], *ps[2:]] for ps in ref]
    assert rule_fails(compare_zero, zero_records(swapped), 2) == (
        "parameter 0 after step 0 (2 ranks) differs from DDP with Adam, though the parameters "
        "hold every value DDP's hold, in other places: a flat buffer packed in one order "
        "(largest first, say) and unpacked in another copies each slice into another "
        "parameter. Pack and unpack in the same order, the order of params"
    )
    # values off, and step() all-reduced something: the averaged gradients summed again
    summed = broadcasts() + broadcasts(1, "all_reduce")
    assert rule_fails(compare_zero, zero_records(off, calls=summed), 2) == (
        f"step() called an all_reduce of shape (16, 16) ({PARAM} bytes) (rank 0, step 0): an "
        "extra collective. The gradients are already averaged before step(), as DDP does (the "
        "checker did it); ZeRO-1's step only broadcasts each updated parameter from its owner"
    )
    # an average (of the parameters, say) is no sum of averages: the generic words
    averaged = broadcasts() + [Call(8, "all_reduce", (16, 16), PARAM, False, "AVG")]
    assert "stepped by exactly one rank" in rule_fails(
        compare_zero, zero_records(off, calls=averaged), 2
    )
    # the same values, sent in 16-bit flat buffers: the narrower dtype is named
    bf16 = [Call(i, "broadcast", (4 * 256,), 2 * PARAM, False) for i in range(2)]
    assert rule_fails(compare_zero, zero_records(off, calls=bf16), 2) == (
        "parameter 0 after step 0 (2 ranks) differs from DDP with Adam by 0.001, and step() "
        f"sent {4 * PARAM} bytes for 2048 elements, fewer than float32's 4 each: buffers of a "
        "narrower dtype (bfloat16, float16) round every parameter they carry. Build each flat "
        "buffer in the parameters' dtype (torch.cat of p.detach().reshape(-1))"
    )


def test_each_rank_makes_its_weights_again_with_the_same_values():
    # in an order rotated by rank, so that addresses (id(), data_ptr()) order them differently
    want = [p.detach() for p in zero.zero_net().parameters()]
    for rank in range(4):
        model = zero.zero_net()
        before = list(model.parameters())
        got = list(zero._laid_out_by_rank(model, rank).parameters())
        assert [torch.equal(g, w) for g, w in zip(got, want, strict=True)] == [True] * 8
        assert all(g.requires_grad and isinstance(g, torch.nn.Parameter) for g in got)
        assert not any(
            g is b or g.data_ptr() == b.data_ptr() for g, b in zip(got, before, strict=True)
        )


def test_the_uneven_model_registers_its_weights_and_biases_in_its_order_and_runs_its_layers():
    model = zero.zero_net(zero.UNEVEN)
    params = list(model.parameters())
    assert [tuple(p.shape) for p in params] == [
        (16, 16) if c == "W" else (16,) for c in "WWWWbWbWbWbWbbbb"
    ]
    assert {p.dtype for p in params} == {torch.float64}
    weights = [p for p in params if p.dim() == 2]
    biases = [p for p in params if p.dim() == 1]
    x = torch.randn(5, 16, dtype=torch.float64)
    want = x
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):  # layer i: weight i, bias i
        want = torch.nn.functional.linear(want, w, b)
        want = want.relu() if i < 7 else want
    assert torch.equal(model(x), want)
    # the same values each time, made again on each rank (through the ParameterList)
    for rank in (0, 5):
        again = list(zero._laid_out_by_rank(zero.zero_net(zero.UNEVEN), rank).parameters())
        assert all(torch.equal(a, p) for a, p in zip(again, params, strict=True))
        assert not any(a.data_ptr() == p.data_ptr() for a, p in zip(again, params, strict=True))


def test_each_rank_makes_its_weights_again_in_an_order_rotated_by_its_rank(monkeypatch):
    want = [p.detach() for p in zero.zero_net().parameters()]
    real, made = torch.nn.Parameter, []

    def recording(data, *args, **kwargs):
        made.append(next(i for i, w in enumerate(want) if torch.equal(w, data)))
        return real(data, *args, **kwargs)

    for rank in (0, 1, 3, 10):
        model = zero.zero_net()
        made.clear()
        with monkeypatch.context() as patch:
            patch.setattr(torch.nn, "Parameter", recording)
            zero._laid_out_by_rank(model, rank)
        assert made == [(rank + i) % 8 for i in range(8)], (rank, made)


def test_parameters_are_held_to_one_millionth_absolute_whatever_their_size():
    ref = zero.zero_reference(2)
    off = [list(ps) for ps in ref]
    big = off[0][0].abs().argmax()  # where a relative part would widen the tolerance most
    off[0][0] = (
        off[0][0].flatten().index_add(0, big.reshape(1), torch.tensor([3e-6])).view_as(off[0][0])
    )
    hint = rule_fails(compare_zero, zero_records(off), 2)  # 3e-6 in float32: 3.01e-06
    assert hint.startswith("parameter 0 after step 0 (2 ranks) differs from DDP with Adam by 3.0")
    assert "(more than 1e-6)" in hint


def test_parameters_in_float64_are_held_to_1e_12_and_a_float32_buffer_named():
    uneven, needed = zero.UNEVEN, param_bytes(zero.UNEVEN)
    ref = zero.zero_reference(2, net=uneven)
    full = [Call(0, "broadcast", (needed // 8,), needed, False)]
    compare_zero(zero_records(ref, sent=(needed, needed), calls=full), 2, uneven)
    off = [[p + 1e-10 if i == 0 else p for i, p in enumerate(ps)] for ps in ref]
    hint = rule_fails(compare_zero, zero_records(off, sent=(needed, needed), calls=full), 2, uneven)
    assert hint.startswith("parameter 0 after step 0 (2 ranks) differs from DDP with Adam by 1e-10")
    assert hint.endswith(
        "(more than 1e-12): each parameter must be stepped by exactly one rank, with the "
        "averaged gradient, then broadcast from that rank"
    )
    rounded = [[p.float().double() for p in ps] for ps in ref]  # through a float32 buffer
    narrow = [Call(0, "broadcast", (needed // 8,), needed // 2, False)]
    hint = rule_fails(
        compare_zero, zero_records(rounded, sent=(needed // 2,) * 2, calls=narrow), 2, uneven
    )
    assert (
        f"and step() sent {needed // 2} bytes for {needed // 8} elements, fewer than float64's 8 "
        "each: buffers of a narrower dtype (float32, as torch.zeros(n) and torch.empty(n) make, "
        "or bfloat16) round every parameter they carry"
    ) in hint


# --- moments kept outside the optimizers (compare_kept)


def kept_records(history, kept0, kept1=()):
    """Two ranks: rank 0 owns parameters 0-3, rank 1 parameters 4-7; rank 0 keeps
    ``kept0(step)`` (a list of flat tensors) after each step, rank 1 ``kept1``, none of them
    kept a step before (``kept_then`` None)."""
    steps = range(len(history))
    records = [
        {"held": [[0, 1, 2, 3] for _ in steps], "kept": [list(kept0(s)) for s in steps]},
        {"held": [[4, 5, 6, 7] for _ in steps], "kept": [list(kept1) for _ in steps]},
    ]
    for record in records:
        record["kept_then"] = [[None] * len(kept) for kept in record["kept"]]
    return records


@pytest.fixture
def history(one_thread):  # one thread before any torch work: see _one_thread
    log: list = []
    zero.zero_reference(2, history=log)
    return log


def flat(*tensors):
    return torch.cat([t.reshape(-1) for t in tensors])


def test_moments_of_another_ranks_parameter_are_named_wherever_they_lie(history):
    exp_avg = lambda s, i: history[s][i][2]  # noqa: E731
    exp_avg_sq = lambda s, i: history[s][i][3]  # noqa: E731
    # a dict of every parameter's moments: parameter 4 is rank 1's
    said = rule_fails(
        compare_kept, kept_records(history, lambda s: [exp_avg(s, 4).clone()]), history, 0.0
    )
    assert said.startswith(
        "after step 0 rank 0 keeps Adam's exp_avg of parameter 4, which rank 1 owns, in a "
        "tensor of 256 elements outside its optimizer: with ZeRO-1 each rank holds the "
        "optimizer state of its own share only, 1/n of the whole"
    )
    assert said.endswith("Keep no moments of parameters this rank does not own")
    # one flat tensor, at an offset that is no multiple of a parameter's size
    odd = lambda s: [flat(torch.ones(3), exp_avg_sq(s, 6), exp_avg(s, 0))]  # noqa: E731
    assert "rank 0 keeps Adam's exp_avg_sq of parameter 6, which rank 1 owns, in a tensor of " \
        "515 elements" in rule_fails(compare_kept, kept_records(history, odd), history, 0.0)  # fmt: skip
    # rank 1 too, named before rank 1's own moments kept twice
    own = lambda s: [exp_avg(s, 0).clone(), exp_avg_sq(s, 3).clone()]  # noqa: E731
    said = rule_fails(
        compare_kept, kept_records(history, lambda s: [], [exp_avg_sq(0, 2), exp_avg(0, 5)]),
        history, 0.0,
    )  # fmt: skip
    assert said.startswith(
        "after step 0 rank 1 keeps Adam's exp_avg_sq of parameter 2, which rank 0"
    )
    # a rank's own moments kept outside its optimizer are its share twice
    said = rule_fails(compare_kept, kept_records(history, own), history, 0.0)
    assert said == (
        "after step 0 rank 0 keeps Adam's exp_avg of parameter 0, which it owns, in a tensor of "
        "256 elements outside its optimizer, which holds that state already: a copy kept from "
        "one step to the next (a deepcopy of state_dict() as a snapshot, or its torch.save "
        "bytes; moments tracked beside the optimizer) holds the rank's share twice, the bytes "
        "ZeRO-1 saves. Keep the optimizer's state in the optimizer only"
    )
    # kept in another form than a tensor: the words of its form
    records = kept_records(history, own)
    records[0]["kept_forms"] = [["a numpy array", "bytes (torch.save)"] for _ in history]
    said = rule_fails(compare_kept, records, history, 0.0)
    assert said.startswith(
        "after step 0 rank 0 keeps Adam's exp_avg of parameter 0, which it owns, in a numpy "
        "array outside its optimizer"
    )


def test_a_snapshot_of_a_ranks_own_state_from_the_step_before_is_named(history):
    # taken before each step (a deepcopy of state_dict()): the moments a step behind, a mix
    # of the gradients so far from the third step on (the second's is one gradient's multiple)
    behind = lambda s: [history[s - 1][1][3].clone()] if s else []  # noqa: E731
    said = rule_fails(compare_kept, kept_records(history, behind), history, 0.0)
    assert said.startswith(
        "after step 2 rank 0 keeps a mix of its squared gradients (Adam's second moment) of "
        "parameter 1, which it owns,"
    )
    # the gradients and the values before the step, kept one at a time, are no moments
    copies = lambda s: [history[s][1][1].clone(), history[s][2][0].clone()]  # noqa: E731
    compare_kept(kept_records(history, copies), history, 0.0)


def test_room_kept_counts_whole_runs_of_zeros_or_of_what_a_step_left_unchanged():
    assert room_kept([torch.zeros(8)], 4) == 8
    assert room_kept([torch.zeros(9)], 4) == 8  # the tail is no whole run
    assert room_kept([flat(torch.ones(4), torch.zeros(4))], 4) == 4
    assert room_kept([flat(torch.ones(2), torch.zeros(4), torch.ones(2))], 4) == 0  # straddles
    assert room_kept([flat(torch.zeros(3), torch.ones(1)), torch.zeros(4)], 4) == 4
    assert room_kept([], 4) == 0
    # memory never written holds anything: a run equal to the same tensor's a step before
    junk = torch.tensor([3.0, float("nan"), -1e30, 7.0] * 2)
    assert room_kept([junk.clone()], 4, [junk.clone()]) == 0  # nan is never equal to itself
    left = torch.tensor([3.0, 1e-30, -1e30, 7.0, 1.0, 2.0, 3.0, 4.0])
    assert room_kept([left.clone()], 4, [left.clone()]) == 8
    moved = left.clone()
    moved[5] = 2.5  # the second run was written
    assert room_kept([moved], 4, [left]) == 4
    assert room_kept([left, torch.zeros(4)], 4, [None, torch.ones(4)]) == 4  # not kept then
    assert room_kept([left], 4, [left[:4]]) == 0  # another size: not the same tensor's content
    with pytest.raises(ValueError):
        room_kept([left, left], 4, [left])  # one content a step before per tensor, or None


def test_a_kept_scan_pairs_each_tensor_with_its_content_at_the_look():
    scan = KeptScan(tensors_alive(), 4)
    kept, small, ours = torch.zeros(4), torch.zeros(3), torch.zeros(6)
    scan.look([ours])
    kept += 1.0
    late = torch.full((5,), 2.0, dtype=torch.float64)
    kept_, then, forms = scan.record([ours])
    pairs = sorted(zip(kept_, then, forms, strict=True), key=lambda pair: pair[0].numel())
    assert [f.tolist() for f, *_ in pairs] == [[1.0] * 4, [2.0] * 5]  # floats, never ours
    assert pairs[0][1].tolist() == [0.0] * 4  # kept's content at the look
    assert pairs[1][1] is None  # late was made after the look
    assert [w for *_, w in pairs] == ["a tensor of 4 elements", "a tensor of 5 elements"]
    del small, late


def test_what_an_answer_keeps_in_other_forms_than_a_tensor_is_read_back():
    import io
    import pickle
    from collections import deque

    np = pytest.importorskip("numpy")
    moments = torch.arange(8.0)
    saved = io.BytesIO()
    torch.save({"state": {0: {"exp_avg": moments}}}, saved)

    class Holder:
        cls_kept = [pickle.dumps({"m": moments * 2})]

        def __init__(self):
            self.snapshot = saved  # a BytesIO
            self.raw = [bytes(saved.getvalue())]
            self.arrays = {"m": np.arange(8.0) * 3}
            self.listed = deque([(moments * 4).view(2, 4).tolist()])
            self.small = [1.0, 2.0]  # fewer elements than asked for
            self.junk = b"not a pickle at all, nor a torch.save file: just bytes here"
            self.model = torch.nn.Linear(2, 2)  # modules and optimizers are not walked
            self.tensor = moments  # a tensor of its own: the tensors' scan finds it

    found = KeptScan(tensors_alive(), 8).record([], Holder())
    pairs = sorted((int(t.sum()), w) for t, w in zip(found[0], found[2], strict=True))
    assert pairs == [
        (28, "bytes (torch.save or pickle of a state_dict(), say)"),
        (28, "bytes (torch.save or pickle of a state_dict(), say)"),
        (56, "bytes (torch.save or pickle of a state_dict(), say)"),
        (84, "a numpy array"),
        (112, "a list of numbers (tolist())"),
    ]
    assert found[1][-5:] == [None] * 5  # none of them was kept at a look
    # nothing beyond the depth asked for, nor anything in an instance that keeps nothing
    from d2lgpu.checks._ch10_zero_kept import other_forms

    assert other_forms(Holder(), 8, depth=0) == []
    assert other_forms(object(), 1) == []

    class Flat:  # a list one step from the instance and one from its class, and the rest
        numbers = [0.5] * 8
        weights = torch.ones(8)  # a tensor of the class's own: the tensors' scan reads those

        def __init__(self):
            self.numbers = self.again = [1.5] * 8  # the same list twice: found once
            self.small, self.kind = np.arange(3.0), np.dtype("float32")  # too small; no size

    assert sorted((float(t.sum()), w) for t, w in other_forms(Flat(), 8, depth=1)) == [
        (4.0, "a list of numbers (tolist())"),
        (12.0, "a list of numbers (tolist())"),
    ]
    assert other_forms(Flat(), 8, depth=0) == []


def test_room_for_the_state_of_every_other_parameter_is_named_even_never_filled(history):
    # zeros_like for both moments of every parameter, own ones written (with no moment:
    # those are a second copy of the optimizer's, compare_kept's other rule)
    def room(own):
        def kept(s):
            return [torch.full((256,), s + i + 1.0) if i < own else torch.zeros(256)
                    for i in range(8) for _ in "ab"]  # fmt: skip

        return kept

    uneven = kept_records(history, room(2))  # rank 0 owns parameters 0 and 1, rank 1 the rest
    uneven[0]["held"] = [[0, 1] for _ in history]
    uneven[1]["held"] = [list(range(2, 8)) for _ in history]
    said = rule_fails(compare_kept, uneven, history, 0.0)
    assert said.startswith(
        "after step 0 rank 0 of 2 keeps 3072 elements outside its optimizer that hold zeros or did not change through the step, room for both "
        "moments of each parameter it does not own (3072 elements, parameters [2, 3, 4, 5, 6, "
        "7]), more than a flat buffer of every parameter (2048)"
    )
    assert said.endswith(
        ": with ZeRO-1 each rank holds the optimizer state of its own share only, 1/n of the "
        "whole, and allocates nothing for the rest (state preallocated for every parameter, "
        "even never filled, costs the bytes sharding saves). Keep no moments of parameters "
        "this rank does not own"
    )
    # on 2 ranks, as many zeros as a flat buffer of every parameter: told from none
    compare_kept(kept_records(history, room(4)), history, 0.0)
    # both moments of every parameter, never filled, as one flat buffer; and on rank 1
    assert "rank 0 of 2 keeps 4096 elements outside its optimizer that hold zeros" in rule_fails(
        compare_kept, kept_records(history, lambda s: [torch.zeros(4096)]), history, 0.0
    )
    said = rule_fails(
        compare_kept, kept_records(history, lambda s: [], [torch.zeros(256)] * 10), history, 0.0
    )
    assert said.startswith("after step 0 rank 1 of 2 keeps 2560 elements outside")
    # room never written (torch.empty) holds anything: the same content a step before tells
    junk = [torch.randn(4096, generator=torch.Generator().manual_seed(0))]
    unwritten = kept_records(history, lambda s: junk)
    unwritten[0]["kept_then"] = [[junk[0].clone()] for _ in history]
    assert "rank 0 of 2 keeps 4096 elements outside its optimizer that hold zeros or did not " \
        "change through the step" in rule_fails(compare_kept, unwritten, history, 0.0)  # fmt: skip
    unwritten[0]["kept_then"] = [[junk[0] + 1.0] for _ in history]  # written by the step
    compare_kept(unwritten, history, 0.0)
    # less room than both moments of every other parameter; buffers filled are no room
    compare_kept(kept_records(history, lambda s: [torch.zeros(2047 + 256)]), history, 0.0)
    compare_kept(
        kept_records(history, lambda s: [flat(*(h[0] for h in history[s]))] * 3), history, 0.0
    )


def test_moments_of_other_betas_or_bias_corrected_are_named_from_the_gradients(history):
    grads = [[h[i][1].reshape(-1) for i in range(8)] for h in history]

    def tracked(beta, corrected):
        def kept(step):
            m = torch.zeros(256)
            for s in range(step + 1):
                m = beta * m + (1 - beta) * grads[s][5]
            return [m / (1 - beta ** (step + 1)) if corrected else m]

        return kept

    for beta, corrected in ((0.8, False), (0.9, True), (0.5, True)):
        said = rule_fails(
            compare_kept, kept_records(history, tracked(beta, corrected)), history, 0.0
        )
        # step 0's first moment is a multiple of one gradient: named from step 1 on
        assert said.startswith(
            "after step 1 rank 0 keeps a mix of its gradients (Adam's first moment) of "
            "parameter 5, which rank 1 owns, in a tensor of 256 elements"
        ), said

    def squares(s):
        return [0.3 * grads[0][7] ** 2 + (0.7 * grads[s][7] ** 2 if s else 0)]

    said = rule_fails(compare_kept, kept_records(history, squares), history, 0.0)
    assert "after step 1 rank 0 keeps a mix of its squared gradients (Adam's second moment) " \
        "of parameter 7" in said  # fmt: skip


def test_moments_tracked_with_weight_decay_are_named_from_the_parameters_too():
    # weight decay adds wd * p to each gradient before Adam's moments (4 ranks' kwargs)
    log: list = []
    zero.zero_reference(4, kwargs=ADAM_KWARGS[4], history=log)
    wd = ADAM_KWARGS[4]["weight_decay"]
    decayed = [[h[i][1] + wd * h[i][0] for i in range(8)] for h in log]

    def tracked(square):
        def kept(step):
            m = torch.zeros(16, 16)
            for s in range(step + 1):
                d = decayed[s][5] * decayed[s][5] if square else decayed[s][5]
                m = 0.8 * m + 0.2 * d
            return [m.reshape(-1)]

        return kept

    for square, moment in ((False, "first"), (True, "second")):
        said = rule_fails(compare_kept, kept_records(log, tracked(square)), log, wd)
        assert "of parameter 5, which rank 1 owns" in said and f"(Adam's {moment} moment)" in said
    # without weight decay's share, the squares are no mix of the squared gradients alone
    compare_kept(kept_records(log, tracked(True)), log, 0.0)


def test_a_parameter_no_rank_owns_is_said_so_and_the_hint_is_whole(history):
    records = kept_records(history, lambda s: [history[s][6][2].clone()])
    for record in records:
        record["held"] = [[0, 1, 2, 3] for _ in history]  # parameters 4 to 7: no owner
    assert rule_fails(compare_kept, records, history, 0.0) == (
        "after step 0 rank 0 keeps Adam's exp_avg of parameter 6, which no rank owns, in a "
        "tensor of 256 elements outside its optimizer: with ZeRO-1 each rank holds the "
        "optimizer state of its own share only, 1/n of the whole (a second optimizer over every "
        "parameter, moments tracked by hand or gathered from their owners all keep it). Keep "
        "no moments of parameters this rank does not own"
    )


def test_what_a_right_answer_keeps_is_no_moment(history):
    befores = [[h[i][0] for i in range(8)] for h in history]
    grads = [[h[i][1] for i in range(8)] for h in history]
    right = [
        lambda s: [flat(*befores[s])],  # a flat buffer of every parameter, before the step
        lambda s: [flat(*grads[s]), grads[s][6].clone()],  # this step's gradients
        lambda s: [b.clone() for b in befores[s]],  # clones of every parameter
        lambda s: [torch.zeros(2048)],  # an empty flat buffer
        lambda s: [2.0 * grads[s][4]],  # a multiple of one gradient (a scaled copy)
        lambda s: [torch.randn(511, generator=torch.Generator().manual_seed(s))],  # 2 x 256 - 1
        # a mix of gradients, not at a whole parameter's offset: not looked for there
        lambda s: [flat(torch.ones(3), 0.3 * grads[0][5] + 0.7 * grads[s][5])],
    ]
    for kept in right:
        compare_kept(kept_records(history, kept), history, 0.0)


def test_mix_of_fits_a_basis_whose_vectors_repeat_or_differ_in_scale_by_orders(history):
    # without weight decay the decayed gradients repeat the gradients, and the parameters are
    # about 1,000 times their size: torch 2.11's default least-squares driver missed the fit
    grads = [h[5][1].reshape(-1) for h in history[:2]]
    befores = [h[5][0].reshape(-1) for h in history[:2]]
    m = 0.2 * 0.8 * grads[0] + 0.2 * grads[1]
    assert mix_of(m, [*grads, *grads, *befores])
    assert not mix_of(grads[1] * 3.0, [*grads, *grads, *befores])  # a multiple of one


def test_contains_finds_a_part_at_any_offset_within_its_tolerance():
    part = torch.tensor([1.0, -2.0, 3.0])
    assert contains(torch.tensor([9.0, 1.0, -2.0, 3.0]), part)
    assert contains(torch.tensor([1.0005, -2.0, 3.0, 0.0]), part)  # within 1e-3 of itself
    assert not contains(torch.tensor([1.01, -2.0, 3.0]), part)
    assert not contains(torch.tensor([1.0, -2.0]), part)  # shorter than the part
    assert not contains(torch.tensor([1.0, -2.0, 0.0, 3.0]), part)
    assert not contains(torch.zeros(5), torch.zeros(3))  # zeros tell nothing
    assert contains(torch.tensor([7.0, 1.0, -2.0, 3.0]), part, rtol=0)  # equal is within 0
    # each element within its own tolerance: the first's is 1e-3 x (100 + 100) = 0.2
    assert contains(torch.tensor([100.15, 1.0]), torch.tensor([100.0, 1.0]))
    assert not contains(torch.tensor([100.0, 1.15]), torch.tensor([100.0, 1.0]))
    assert contains(torch.tensor([0.0, 5.0, 1e-4]), torch.tensor([0.0, 5.0, 0.0]))  # near zero


def test_mix_of_is_a_sum_of_several_basis_vectors_never_a_multiple_of_one():
    a, b = torch.tensor([1.0, 0.0, 2.0, 1.0]), torch.tensor([0.0, 1.0, 1.0, -1.0])
    assert mix_of(0.3 * a + 0.7 * b, [a, b])
    assert not mix_of(0.3 * a, [a, b])  # a copy of one, scaled
    assert not mix_of(torch.zeros(4), [a, b])
    assert not mix_of(torch.tensor([1.0, 1.0, 1.0, 1.0]), [a, b])  # outside their span
    assert mix_of(0.3 * a + 0.7 * b + 1e-5, [a, b, torch.zeros(4)])  # within 1e-3 of its size
    unit = (0.3 * a + 0.7 * b) / (0.3 * a + 0.7 * b).norm()
    assert mix_of(unit, [a, b])  # a mix of size 1
    assert not mix_of(torch.zeros(4), [torch.zeros(4)])  # nothing is no mix
    e0, e1 = torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])
    assert mix_of(torch.tensor([1.0, 1.0]), [e0, e1], rtol=0)  # exact: within 0


def test_round_21_object_collectives_are_refused():
    assert "broadcast_object_list" in refused.OBJECTS
    with pytest.raises(RuleBroken) as raised:
        refused.object_collective("broadcast_object_list", [None], src=0)
    assert str(raised.value) == (
        "your ShardedOptimizer called dist.broadcast_object_list: it pickles the tensors, "
        "copies them to the host and back (on NCCL, through the GPU), in two collectives a "
        "call, every step. Broadcast the tensors themselves: dist.broadcast(p.data, "
        "src=owner) per parameter, or one flat buffer per owner"
    )


def test_a_gradient_clip_in_step_is_refused_and_put_back_after():
    # round 26: a clip over the rank's own share takes a norm of its own on each rank
    grads = [torch.ones(3, requires_grad=True)]
    grads[0].grad = torch.ones(3)
    with patched(*refused.refused_in_step()):
        for name in ("clip_grad_norm_", "clip_grad_value_"):
            with pytest.raises(RuleBroken) as raised:
                getattr(torch.nn.utils, name)(grads, 1.0)
            said = str(raised.value)
            assert said.startswith(f"your ShardedOptimizer's step() called torch.nn.utils.{name}:")
            assert "norm of one share only" in said and "Leave the gradients as they arrive" in said
        with pytest.raises(RuleBroken, match="dist.scatter_object_list"):
            torch.distributed.scatter_object_list([None], [None], src=0)
    assert float(torch.nn.utils.clip_grad_norm_(grads, 1.0)) == pytest.approx(3**0.5)  # back
    # 10.allreduce_grads' words: the local norm, before the average
    with patched(*refused.clips_refused(refused.AVERAGE_CLIP)), pytest.raises(RuleBroken) as raised:
        torch.nn.utils.clip_grad_value_(grads, 0.5)
    assert str(raised.value).startswith(
        "your function called torch.nn.utils.clip_grad_value_: the exercise asks for the "
        "average of each gradient over the ranks and nothing more"
    )


def test_a_bias_without_a_gradient_at_the_first_step_is_skipped_there_and_stepped_after(one_thread):
    from d2lgpu.checks._ch10_zero_compare import _late_hint

    net, i = zero.UNEVEN, zero.UNEVEN.late_param
    assert (net.late, i, zero.PLAIN.late_param) == (2, 8, -1)
    initial = list(zero.zero_net(net).parameters())[i].detach()
    right = zero.zero_reference(2, net=net)
    assert torch.equal(right[0][i], initial) and not torch.equal(right[1][i], initial)
    for step in range(3):  # DDP's own parameters, and another parameter: nothing to name
        _late_hint([{"params": right}] * 2, step, i, net, initial, 1e-12)
        _late_hint([{"params": right}] * 2, step, i - 1, net, initial, 1e-12)
    # an optimizer built at the first step, over the parameters with a gradient then
    lazy = [[p.clone() for p in ps] for ps in right]
    lazy[1][i] = lazy[2][i] = initial.clone()
    said = rule_fails(_late_hint, [{"params": lazy}] * 2, 1, i, net, initial, 1e-12)
    assert said == (
        "parameter 8 (layer 2's bias, left out of step 0's forward: no gradient there) was not "
        "stepped at step 1 (2 ranks), where it has a gradient: was the local optimizer built at "
        "the first step, over the parameters that had a gradient then? Build optimizer_cls over "
        "every parameter this rank owns, in __init__: Adam skips a parameter whose .grad is "
        "None, and steps it once it has one"
    )
    _late_hint([{"params": lazy}] * 2, 0, i, net, initial, 1e-12)  # step 0: nothing before
    stalled = [[p.clone() for p in ps] for ps in right]  # stepped at step 1, not at step 2
    stalled[2][i] = stalled[1][i].clone()
    said = rule_fails(_late_hint, [{"params": stalled}] * 2, 2, i, net, initial, 1e-12)
    assert said.startswith(f"parameter {i} (layer 2's bias, left out of step 0's forward: no "
                           "gradient there) was not stepped at step 2 (2 ranks)")  # fmt: skip
    # zeros made where there was no gradient: Adam steps them (its step count, here)
    zeros = zero.zero_reference(2, net=net, none_as_zeros=True)
    assert torch.equal(zeros[0][i], initial) and not torch.allclose(zeros[1][i], right[1][i])
    said = rule_fails(_late_hint, [{"params": zeros}] * 2, 1, i, net, initial, 1e-12)
    assert said == (
        "parameter 8 (layer 2's bias, left out of step 0's forward: no gradient there) after "
        "step 1 (2 ranks) is what Adam gives when it steps a zero gradient at step 0: a "
        "zero_grad() that makes zeros where p.grad was None (torch.zeros_like) has Adam step a "
        "parameter that got no gradient (its step count, its moments, weight decay), which "
        "DDP's Adam skips. Leave a gradient that is None as None: p.grad = None, or zero_() "
        "only where p.grad is not None"
    )


def test_an_optimizer_built_with_other_keyword_arguments_than_the_case_passed_is_named():
    from d2lgpu.checks._ch10_zero_rules import compare_built

    def built(**kwargs):
        return dict(torch.optim.Adam([torch.zeros(1, requires_grad=True)], **kwargs).defaults)

    three = ADAM_KWARGS[3]
    assert "lr" not in three and ADAM_KWARGS[2]["lr"] == 0.01
    compare_built([{"built": [built(**three)]}, {"built": [built(**three), built(**three)]}], 3)
    compare_built([{}, {"built": []}], 3)  # no optimizer recorded: other rules say so
    records = [{"built": [built(**three)]}, {"built": [built(lr=0.01, **three)]}]
    assert rule_fails(compare_built, records, 3) == (
        "rank 1's optimizer_cls was built (3 ranks) with lr=0.01, where this case passed no lr "
        "(Adam's default is 0.001); this case passed {'eps': 1e-06, 'betas': (0.8, 0.95)}: pass "
        "on the keyword arguments ShardedOptimizer received as they are, none dropped and none "
        "of your own: optimizer_cls(own_params, **kwargs)"
    )
    for got, world, words in (
        (built(), 2, "with Adam's defaults: none of the keyword arguments were passed on;"),
        (built(lr=0.01), 2, "with lr alone (Adam with lr alone: the other keyword arguments were "
                            "dropped);"),
        (built(**ADAM_KWARGS[2]), 4, "with {'lr': 0.01, 'betas': (0.85, 0.99)}, the keyword "
                                     "arguments of another case: values written in;"),
        (built(lr=0.02, weight_decay=0.1), 4, "with weight_decay=0.1, where this case passed "
                                              "weight_decay=0.01;"),
        (built(**three, amsgrad=True), 3, "with amsgrad=True, where this case passed no amsgrad"),
        (built(**three, maximize=True), 3, "with maximize=True,"),
        (built(eps=1e-6), 3, "with betas=(0.9, 0.999), where this case passed betas=(0.8, 0.95);"),
    ):  # fmt: skip
        said = rule_fails(compare_built, [{"built": [got]}], world)
        assert said.startswith(f"rank 0's optimizer_cls was built ({world} ranks) {words}"), said


def test_a_setting_of_the_answers_own_is_named_though_it_equals_adams_default():
    from d2lgpu.checks._ch10_zero_rules import compare_built

    three = ADAM_KWARGS[3]

    def built(given, **kwargs):  # Adam's settings, and the names (or places) it was given
        adam = torch.optim.Adam([torch.zeros(1, requires_grad=True)], **kwargs)
        return dict(adam.defaults, given=given)

    compare_built([{"built": [built(sorted(three), **three)]}], 3)  # the case's own: passed
    # lr=0.001, Adam's default, added by the answer where the case passed none
    own_lr = built(["betas", "eps", "lr"], lr=1e-3, **three)
    said = rule_fails(compare_built, [{"built": [own_lr]}], 3)
    assert said == (
        "rank 0's optimizer_cls was given lr=0.001 (3 ranks), which this case did not pass "
        "({'eps': 1e-06, 'betas': (0.8, 0.95)}): an argument of your own, even one equal to "
        "Adam's default, overrides the default of whatever optimizer_cls the caller passes "
        "(another optimizer's, or its own partial). Pass on the keyword arguments "
        "ShardedOptimizer received as they are: optimizer_cls(own_params, **kwargs)"
    ), said
    said = rule_fails(compare_built, [{}, {"built": [built(["betas", "eps", "#1"], **three)]}], 3)
    assert said.startswith(
        "rank 1's optimizer_cls was given a setting by position after the parameters (1) "
        "(3 ranks), which this case did not pass"
    ), said


def test_the_recorded_adam_notes_the_settings_it_was_given_by_name_and_by_place():
    from d2lgpu.checks._ch10_zero import _OPTIMIZERS, _RecordedAdam

    p = [torch.zeros(2, requires_grad=True)]
    try:
        assert _RecordedAdam(p, lr=0.1, eps=1e-8).given == ["eps", "lr"]
        assert _RecordedAdam(p, 0.1).given == ["#1"]
        assert _RecordedAdam(params=p, lr=0.1).given == ["lr"]
        assert _RecordedAdam(p).given == []
    finally:  # a rank job clears the list as it starts; this process's stays clean too
        del _OPTIMIZERS[:]
