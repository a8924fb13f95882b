"""Chapter 11's checker, 11.memory: right answers in other styles pass, realistic wrong ones
fail with a hint that names the mistake. The tracker's numbers are measured once per case
(a few seconds in all) and cached."""

import heapq
import math

import numpy as np
import pytest
from grading_helpers import assert_fails, assert_passes, stub

from d2lgpu.grading import check


def predict(shapes, plan, world_size, *, counters=4, sort=True, zero1="whole", fsdp2="padded"):
    """The worked answer; each keyword changes one thing into a known mistake."""
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {
            "params": 4 * total,
            "grads": 4 * total,
            "optimizer": 8 * total + counters * len(numels),
        }
    if plan == "zero1":
        if zero1 == "even":
            return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total // world_size}
        if zero1 == "sharded":
            return {"params": 4 * total // world_size, "grads": 4 * total // world_size,
                    "optimizer": 8 * total // world_size}  # fmt: skip
        sizes, mine = [0] * world_size, []
        for n in sorted(numels, reverse=True) if sort else numels:
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            if rank == 0:
                mine.append(n)
        return {
            "params": 4 * total,
            "grads": 4 * total,
            "optimizer": 8 * sum(mine) + counters * len(mine),
        }
    if fsdp2 == "exact":
        local = total // world_size
    elif fsdp2 == "floor":  # shards of rows // N rows
        local = sum(s[0] // world_size * math.prod(s[1:]) for s in shapes)
    else:
        local = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    grads = 4 * total if fsdp2 == "whole grads" else 4 * local
    return {"params": 4 * local, "grads": grads, "optimizer": 8 * local + counters * len(numels)}


def predict_heap(shapes, plan, world_size):
    """Right, in another style: a heap deals ZeRO-1's tensors, numpy counts, floats returned."""
    sizes = np.array([int(np.prod(s)) for s in shapes])
    if plan == "zero1":
        heap = [(0, rank) for rank in range(world_size)]
        owned = []
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):  # stable: module order on ties
            load, rank = heapq.heappop(heap)
            if rank == 0:
                owned.append(sizes[i])
            heapq.heappush(heap, (load + sizes[i], rank))
        state = 8.0 * sum(owned) + 4.0 * len(owned)
        return dict(params=4.0 * sizes.sum(), grads=4.0 * sizes.sum(), optimizer=state)
    if plan == "fsdp2":
        rows = [-(-s[0] // world_size) * int(np.prod(s[1:])) for s in shapes]
        return dict(
            params=4.0 * sum(rows),
            grads=4.0 * sum(rows),
            optimizer=8.0 * sum(rows) + 4.0 * len(rows),
        )
    return dict(
        params=4.0 * sizes.sum(),
        grads=4.0 * sizes.sum(),
        optimizer=12.0 * sizes.sum() - 4.0 * sizes.sum() + 4.0 * len(sizes),
    )


@pytest.mark.parametrize("answer", [predict, predict_heap])
def test_memory_right_answers_pass(answer):
    result = assert_passes("11.memory", answer)
    assert result.passed == [
        f"{n} tensors on {world} ranks: parameters, gradients and Adam's state under DDP, "
        "ZeRO-1 and FSDP2, as the tracker measures them"
        for n, world in ((7, 8), (7, 3), (7, 2), (4, 8), (3, 2), (8, 2), (3, 3), (5, 8))
    ] + [
        "called again on the same list holding other shapes, and twice in a row with the same "
        "plan and ranks: each call computed from the shapes it was given"
    ]


def mib(shapes, plan, world_size):
    return {k: v / 2**20 for k, v in predict(shapes, plan, world_size).items()}


def module_order_ties_last(shapes, plan, world_size):
    """ZeRO-1 dealt largest first but ties sent to the highest rank."""
    if plan != "zero1":
        return predict(shapes, plan, world_size)
    numels = sorted((math.prod(s) for s in shapes), reverse=True)
    sizes, mine = [0] * world_size, []
    for n in numels:
        rank = max(r for r in range(world_size) if sizes[r] == min(sizes))
        sizes[rank] += n
        if rank == 0:
            mine.append(n)
    total = sum(numels)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}


MISTAKES = [
    (lambda s, p, n: predict(s, p, n, counters=0), "step counter"),
    (lambda s, p, n: predict(s, p, n, zero1="even"), "an even split"),
    (
        lambda s, p, n: predict(s, p, n, zero1="sharded"),
        "keep every parameter and every gradient whole",
    ),
    (lambda s, p, n: predict(s, p, n, sort=False), "sorts the tensors by size"),
    (module_order_ties_last, "the lowest rank on a tie"),
    (lambda s, p, n: predict(s, p, n, fsdp2="exact"), "ceil(rows / N)"),
    (lambda s, p, n: predict(s, p, n, fsdp2="whole grads"), "FSDP2 shards grads too"),
    (mib, "bytes, not KB, MiB"),
    (lambda s, p, n: mb(s, p, n), "bytes, not KB, MiB or MB"),
    (lambda s, p, n: one_wrong(s, p, n, "ddp", "optimizer", lambda v, n: v // n), "under DDP"),
    (lambda s, p, n: one_wrong(s, p, n, "ddp", "grads", lambda v, n: 0), "whole (4 bytes"),
    (
        lambda s, p, n: one_wrong(s, p, n, "fsdp2", "optimizer", lambda v, n: 8 * 3112 + 28),
        "state too",
    ),
    (lambda s, p, n: one_wrong(s, p, n, "zero1", "optimizer", even_with_counters), "even split"),
    (lambda s, p, n: predict(s, p, n, fsdp2="floor"), "rows // N rows"),
    (lambda s, p, n: one_wrong(s, p, n, "fsdp2", "params", lambda v, n: 7), "you predicted 7"),
    # Adam's state as an exact N-th, or as rows // N rows, with a step counter per tensor
    (lambda s, p, n: one_wrong(s, p, n, "fsdp2", "optimizer", lambda v, n: 3112 + 28), "N-th"),
    (lambda s, p, n: one_wrong(s, p, n, "fsdp2", "optimizer", lambda v, n: 2984 + 28), "// N"),
    # the same with one counter too many (8 for 7 tensors): beyond what counters explain
    (
        lambda s, p, n: one_wrong(s, p, n, "fsdp2", "optimizer", lambda v, n: 3112 + 32),
        "you predicted 3144"
        ": FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows (the last ones padded), and shards parameters, gradients and Adam's moments alike",
    ),
    (
        lambda s, p, n: one_wrong(s, p, n, "fsdp2", "optimizer", lambda v, n: 2984 + 32),
        "you predicted 3016"
        ": FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows (the last ones padded), and shards parameters, gradients and Adam's moments alike",
    ),
    # MiB and MB rounded to a few digits: still a unit, not a miscount
    (lambda s, p, n: rounded(s, p, n, 2**20, 4), "bytes, not KB, MiB or MB"),
    (lambda s, p, n: rounded(s, p, n, 1e6, 2), "bytes, not KB, MiB or MB"),
    # right on 8 ranks; on 3, FSDP2's Adam state in shards of ceil(numel / N) elements
    (lambda s, p, n: by_element_on_3_ranks(s, p, n), "ceil(numel / N) elements"),
    # KB, a thousand times too few
    (lambda s, p, n: rounded(s, p, n, 1e3, 3), "bytes, not KB"),
]


def mb(shapes, plan, world_size):
    return {k: v / 1e6 for k, v in predict(shapes, plan, world_size).items()}


def one_wrong(shapes, plan, world_size, wrong_plan, kind, change):
    """The worked answer with one number changed, for one plan."""
    got = predict(shapes, plan, world_size)
    if plan == wrong_plan:
        got[kind] = change(got[kind], world_size)
    return got


def rounded(shapes, plan, world_size, unit, digits):
    """The worked answer in ``unit`` (MiB, MB), rounded to ``digits`` decimals."""
    return {k: round(v / unit, digits) for k, v in predict(shapes, plan, world_size).items()}


def by_element_on_3_ranks(shapes, plan, world_size):
    """Right on 8 ranks; on 3, FSDP2's Adam state in shards of ceil(numel / N) elements.

    The one way to reach that hint: on 8 ranks every tensor's elements divide evenly, so
    ceil(numel / N) is an exact N-th, which is named first, and for parameters and
    gradients ceil(numel / N) is always within the slack of an exact N-th."""
    got = predict(shapes, plan, world_size)
    if plan == "fsdp2" and world_size == 3:
        elements = sum(math.ceil(math.prod(s) / world_size) for s in shapes)
        got["optimizer"] = 8 * elements + 4 * len(shapes)
    return got


def even_with_counters(value, world_size):
    """ZeRO-1's moments split evenly, plus one counter: 8Ψ/N + 4 (3112 parameters here)."""
    return 8 * 3112 // world_size + 4


@pytest.mark.parametrize("answer, hint", MISTAKES)
def test_memory_mistakes_are_named(answer, hint):
    assert_fails("11.memory", answer, hint)


def test_memory_a_wrong_return_type_and_a_non_function_are_named():
    result = assert_fails("11.memory", lambda s, p, n: (1, 2, 3), "must return a dict")
    assert result.hint == (
        "predict(..., 'ddp', 8) returned (1, 2, 3): it must return a dict with the keys "
        "'params', 'grads', 'optimizer'"
    )
    result = assert_fails("11.memory", 42, "must be the function predict")
    assert result.hint == "the answer must be the function predict, got 42"
    # a dict with other keys, or values that are not numbers
    assert_fails("11.memory", lambda s, p, n: {"params": 1, "grads": 1}, "must return a dict")
    result = assert_fails("11.memory", lambda s, p, n: {**predict(s, p, n), "params": None})
    assert result.hint == (
        "predict(..., 'ddp', 8)['params'] is None: each value must be a number of bytes "
        "(an int, or a float)"
    )


def test_memory_the_stub_is_not_attempted():
    assert check("11.memory", stub, quiet=True).status == "not attempted"


SHAPES = "[(6, 16), (96, 16), (40, 16), (40,), (24, 16), (10, 16), (16, 16)]"


@pytest.mark.parametrize(
    "index, hint",
    [
        (
            0,
            f"ddp on 8 ranks, shapes {SHAPES}: Adam's state is 24,924 bytes, you predicted 24,896: Adam keeps a 4-byte step counter (a float32 scalar) for every tensor it updates, besides the two moments",
        ),
        (
            1,
            f"zero1 on 8 ranks, shapes {SHAPES}: rank 0 holds 12,292 bytes of Adam's state, you predicted 3112, an even split: ZeroRedundancyOptimizer gives each rank whole tensors, not an N-th of each",
        ),
        (
            2,
            f"zero1 on 8 ranks, shapes {SHAPES}: params are 12,448 bytes, you predicted 1556: DDP and ZeRO-1 keep every parameter and every gradient whole (4 bytes each) on every rank",
        ),
        (
            3,
            f"zero1 on 8 ranks, shapes {SHAPES}: rank 0 holds 12,292 bytes of Adam's state, you predicted 772: ZeroRedundancyOptimizer sorts the tensors by size, largest first (ties in the module's order), and gives each to the rank holding the fewest elements so far (the lowest rank on a tie); rank 0 keeps 8 bytes per element and 4 per tensor it owns",
        ),
        (
            4,
            f"zero1 on 8 ranks, shapes {SHAPES}: rank 0 holds 12,292 bytes of Adam's state, you predicted 0: ZeroRedundancyOptimizer sorts the tensors by size, largest first (ties in the module's order), and gives each to the rank holding the fewest elements so far (the lowest rank on a tie); rank 0 keeps 8 bytes per element and 4 per tensor it owns",
        ),
        (
            5,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 1,620 bytes of params, you predicted 1556, an exact N-th: FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows, padded, so rank 0 holds a full shard of every tensor",
        ),
        (
            6,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 1,620 bytes of grads, you predicted 12448, the whole model's: FSDP2 shards grads too",
        ),
        (
            7,
            f"ddp on 8 ranks, shapes {SHAPES}: rank 0 holds 12,448 bytes of params, you predicted 0.011871337890625: return bytes, not KB, MiB or MB",
        ),
        (
            8,
            f"ddp on 8 ranks, shapes {SHAPES}: rank 0 holds 12,448 bytes of params, you predicted 0.012448: return bytes, not KB, MiB or MB",
        ),
        (
            9,
            f"ddp on 8 ranks, shapes {SHAPES}: Adam's state is 24,924 bytes, you predicted 3115: under DDP every rank keeps both moments of every parameter and a step counter per tensor",
        ),
        (
            10,
            f"ddp on 8 ranks, shapes {SHAPES}: grads are 12,448 bytes, you predicted 0: DDP and ZeRO-1 keep every parameter and every gradient whole (4 bytes each) on every rank",
        ),
        (
            11,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 3,268 bytes of optimizer, you predicted 24924, the whole model's: FSDP2 shards Adam's state too",
        ),
        (
            12,
            f"zero1 on 8 ranks, shapes {SHAPES}: rank 0 holds 12,292 bytes of Adam's state, you predicted 3116, an even split: ZeroRedundancyOptimizer gives each rank whole tensors, not an N-th of each",
        ),
        (
            13,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 1,620 bytes of params, you predicted 1492, shards of rows // N rows (rounded down): FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows, padding the last ones, so rank 0 holds ceil(rows / N) rows of every tensor",
        ),
        (
            14,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 1,620 bytes of params, you predicted 7"
            ": FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows (the last ones padded), and shards parameters, gradients and Adam's moments alike",
        ),
        (
            15,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 3,268 bytes of optimizer, you predicted 3140, an exact N-th: FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows, padded, so rank 0 holds a full shard of every tensor",
        ),
        (
            16,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 3,268 bytes of optimizer, you predicted 3012, shards of rows // N rows (rounded down): FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows, padding the last ones, so rank 0 holds ceil(rows / N) rows of every tensor",
        ),
        (
            17,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 3,268 bytes of optimizer, you predicted 3144"
            ": FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows (the last ones padded), and shards parameters, gradients and Adam's moments alike",
        ),
        (
            18,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 3,268 bytes of optimizer, you predicted 3016"
            ": FSDP2 cuts each tensor along its first dimension into shards of ceil(rows / N) rows (the last ones padded), and shards parameters, gradients and Adam's moments alike",
        ),
        (
            19,
            f"ddp on 8 ranks, shapes {SHAPES}: rank 0 holds 12,448 bytes of params, you predicted 0.0119: return bytes, not KB, MiB or MB",
        ),
        (
            20,
            f"ddp on 8 ranks, shapes {SHAPES}: rank 0 holds 12,448 bytes of params, you predicted 0.01: return bytes, not KB, MiB or MB",
        ),
        (
            21,
            f"fsdp2 on 3 ranks, shapes {SHAPES}: rank 0 holds 8,588 bytes of optimizer, you predicted 8348, shards of ceil(numel / N) elements: FSDP2 cuts each tensor along its first dimension, into shards of ceil(rows / N) whole rows (padded), not into N-ths of its elements",
        ),
        (
            22,
            f"ddp on 8 ranks, shapes {SHAPES}: rank 0 holds 12,448 bytes of params, you predicted 12.448: return bytes, not KB, MiB or MB",
        ),
    ],
)
def test_memory_hints_in_full(index, hint):
    # the whole hint, numbers and all, for each mistake above: no word of it left to chance
    answer = MISTAKES[index][0]
    assert check("11.memory", answer, quiet=True).hint == hint


def test_the_checkers_model_has_one_parameter_of_each_shape_and_a_forward_over_all():
    # forward only: the model the tracker measures, checked where a backward cannot run
    from d2lgpu.checks.ch11_planning import CASES, _Shapes

    for shapes, _ in CASES:
        model = _Shapes(shapes)
        assert [tuple(p.shape) for p in model.parameters()] == [tuple(s) for s in shapes]
        assert all(bool((p == 1).all()) for p in model.parameters())
        out = model(model.example_input())
        assert out.shape == (2,) and out.tolist() == [1.0, 1.0], out


def test_memory_names_the_state_of_the_rank_that_holds_the_most():
    def most(shapes, plan, world_size):
        got = predict(shapes, plan, world_size)
        if plan == "zero1":  # the largest rank's state, as a learner sizing memory might
            elements, state = [0] * world_size, [0] * world_size
            for numel in sorted((math.prod(s) for s in shapes), reverse=True):
                rank = elements.index(min(elements))
                elements[rank] += numel
                state[rank] += 8 * numel + 4
            got["optimizer"] = max(state)
        return got

    result = assert_fails(
        "11.memory",
        most,
        "zero1 on 2 ranks, shapes [(6, 4), (10, 4), (6, 4)]: rank 0 holds 324 bytes of Adam's "
        "state, you predicted 392, what rank 1, the rank that holds the most, holds: predict "
        "rank 0's bytes",
    )
    assert len(result.passed) == 4  # the earlier cases' rank 0 holds the most: they pass


def test_memory_names_step_counters_for_tensors_rank_0_does_not_own():
    def counters_everywhere(shapes, plan, world_size):
        got = predict(shapes, plan, world_size)
        if plan == "zero1":  # a counter for every tensor, as under DDP
            owned = sum(1 for _ in shapes)  # more than rank 0 owns on several ranks
            got["optimizer"] += 4 * owned - 4 * (owned // world_size or 1)
        return got

    hint = assert_fails("11.memory", counters_everywhere).hint
    assert "bytes more: a step counter for tensors rank 0 does not own" in hint, hint


def zero1_deal(by_rows=False, by_bytes=False):
    """ZeRO-1's tensors sorted by rows, or dealt to the rank holding the fewest bytes."""

    def answer(shapes, plan, world_size):
        got = predict(shapes, plan, world_size)
        if plan == "zero1":
            order = sorted(shapes, key=lambda s: s[0] if by_rows else math.prod(s), reverse=True)
            held, mine = [0] * world_size, []
            for shape in order:
                rank = held.index(min(held))
                held[rank] += 8 * math.prod(shape) + 4 if by_bytes else math.prod(shape)
                mine += [math.prod(shape)] if rank == 0 else []
            got["optimizer"] = 8 * sum(mine) + 4 * len(mine)
        return got

    return answer


def sorts_in_place(shapes, plan, world_size):
    """Right numbers, but the caller's list sorted in place, largest first."""
    shapes.sort(key=math.prod, reverse=True)
    return predict(shapes, plan, world_size)


def vectors_whole(shapes, plan, world_size):
    """FSDP2 with the 1-D tensors left whole on every rank."""
    got = predict(shapes, plan, world_size)
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) if len(s) > 1 else s[0]
                    for s in shapes)  # fmt: skip
        got.update(params=4 * local, grads=4 * local, optimizer=8 * local + 4 * len(shapes))
    return got


LAST = "[(2, 24), (16, 2), (24,), (4,), (1,), (1,), (1,), (1,)]"


@pytest.mark.parametrize(
    "answer, hint",
    [
        # a deal by rows gives rank 0 the (40,) on 2 ranks of the first shapes too late (round
        # 65's case); a deal by bytes shows only in the last case: four vectors that fill rank
        # 1 up to rank 0's elements but not its bytes
        (
            zero1_deal(by_rows=True),
            f"zero1 on 2 ranks, shapes {SHAPES}: rank 0 holds 12,616 bytes of Adam's state, you "
            "predicted 12292, what a deal sorted by rows gives: ZeroRedundancyOptimizer sorts the "
            "tensors by their number of elements (math.prod(shape)), largest first, not by "
            "their first dimension",
        ),
        (
            zero1_deal(by_bytes=True),
            f"zero1 on 2 ranks, shapes {LAST}: rank 0 holds 472 bytes of Adam's state, you "
            "predicted 460, what balancing the ranks' bytes (step counters included) gives: "
            "ZeroRedundancyOptimizer gives each tensor to the rank holding the fewest elements "
            "so far, counting elements only",
        ),
        (
            sorts_in_place,
            f"predict(shapes, 'ddp', 8) changed the list of shapes it was given, from {SHAPES} "
            "to [(96, 16), (40, 16), (24, 16), (16, 16), (10, 16), (6, 16), (40,)]: the "
            "caller's list is the module's order. Work on a copy (sorted(shapes), not "
            "shapes.sort())",
        ),
        (
            vectors_whole,
            f"fsdp2 on 8 ranks, shapes {SHAPES}: rank 0 holds 1,620 bytes of params, you "
            "predicted 1760, with the 1-D tensors (norm weights, biases) kept whole: FSDP2 "
            "shards every tensor along its first dimension, vectors too, into ceil(rows / N) "
            "rows, padded",
        ),
    ],
)
def test_memory_deals_a_changed_list_and_whole_vectors_are_named(answer, hint):
    assert check("11.memory", answer, quiet=True).hint == hint


def test_memory_names_a_count_that_wrapped_around_in_32_bits():
    # round 62: 2.6 GB on a rank of the large case; int32 holds 2**31 - 1
    def in_int32(shapes, plan, world_size):
        got = predict(shapes, plan, world_size)
        return {k: (int(v) + 2**31) % 2**32 - 2**31 for k, v in got.items()}

    hint = assert_fails("11.memory", in_int32).hint
    assert hint == (
        "ddp on 8 ranks, shapes [(128256, 4096), (4096,), (14336, 4096), (4096, 14336), "
        "(1024, 4096)]: rank 0 holds 2,587,901,952 bytes of params, you predicted "
        "-1,707,065,344, that number wrapped around at 2**32: counted in a 32-bit integer "
        "(NumPy's int32, torch.int32), which holds at most 2,147,483,647. Count in Python ints"
    ), hint


def test_memory_names_a_deal_kept_from_another_world_size_and_not_another_rule():
    kept: dict = {}

    def deal_kept(shapes, plan, world_size):  # round 65's w10: the cache's key lacks the ranks
        if plan != "zero1":
            return predict(shapes, plan, world_size)
        return kept.setdefault(tuple(shapes), predict(shapes, plan, world_size))

    assert_fails(
        "11.memory", deal_kept, "'zero1', 2) returned", "'zero1', 8) returned, for another "
        "number of ranks, and so it does on 1 rank, where rank 0 holds every tensor: world_size "
        "was not used, either written in, kept from that call (a cache keyed without it), or "
        "left out of ZeRO-1's deal",
    )  # fmt: skip

    def by_rows(shapes, plan, world_size):  # round 65's w02: rank 0 holds the same on 2 and 8
        if plan != "zero1":
            return predict(shapes, plan, world_size)
        held, mine = [0] * world_size, []
        for shape in sorted(shapes, key=lambda s: s[0], reverse=True):
            rank = held.index(min(held))
            held[rank] += math.prod(shape)
            mine.append(math.prod(shape)) if rank == 0 else None
        return dict(predict(shapes, plan, world_size), optimizer=8 * sum(mine) + 4 * len(mine))

    assert_fails("11.memory", by_rows, "zero1 on 2 ranks", "what a deal sorted by rows gives")


def test_memory_names_the_peaks_temporaries_counted_as_state():
    def at_the_peak(shapes, plan, world_size):  # round 65's w12
        got = predict(shapes, plan, world_size)
        return dict(got, optimizer=got["optimizer"] + 8 * max(map(math.prod, shapes)))

    assert_fails(
        "11.memory", at_the_peak, "Adam's state is 24,924 bytes, you predicted 37,212, 12,288 "
        "more: the moments of one tensor again, what the tracker files as Optstate at the peak",
        "Predict what a rank holds after the step",
    )  # fmt: skip


def test_a_world_size_not_used_is_asked_on_one_rank_and_an_error_there_says_nothing():
    from d2lgpu.checks._ch11_kept import _on_one_rank

    shapes = ((6, 4), (10, 4))
    got = {"params": 1, "grads": 1, "optimizer": 1}

    def refuses_one_rank(shapes, plan, world_size):
        if world_size == 1:
            raise ValueError("one rank: nothing to shard")
        return dict(got)

    assert _on_one_rank((shapes, "zero1", 8), got, lambda *a: dict(got))
    assert not _on_one_rank((shapes, "zero1", 8), got, refuses_one_rank)
    assert not _on_one_rank((shapes, "zero1", 8), got, lambda *a: {**got, "optimizer": 2})
