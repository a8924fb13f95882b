"""Chapter 9's `09.checkpoint` checker, more cases: the ones `make mutation` showed
no test pinned down (docs/mutation.md)."""

import functools

import pytest
import torch
from grading_helpers import assert_fails, assert_passes, rule_fails
from test_checks_ch09 import (  # answers and helpers shared with the first cases
    StraightThroughCheckpoint,
    checkpoint_seq,
    late_binding,
    run_blocks,
    whole_model,
)
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

from d2lgpu.checks import ch09_checkpointing


def parts_of(blocks, segments):
    return [
        [blocks[int(i)] for i in p] for p in torch.tensor_split(torch.arange(len(blocks)), segments)
    ]


def checkpoint_loop(blocks, x, segments):
    h = x
    for chosen in parts_of(blocks, segments):
        h = checkpoint(functools.partial(run_blocks, chosen), h, use_reentrant=False)
    return h


def first_segment_only(blocks, x, segments):
    """The first segment checkpointed ("where the activations start"), the rest run plain."""
    first, *rest = parts_of(blocks, segments)
    h = checkpoint(functools.partial(run_blocks, first), x, use_reentrant=False)
    return run_blocks([b for part in rest for b in part], h)


def hand_written_first_segment(blocks, x, segments):
    """The first segment through the hand-written checkpoint above ("x needs no gradient
    anyway"), the others through torch's: only the input's gradient is wrong."""
    first, *rest = parts_of(blocks, segments)
    params = [p for b in first for p in b.parameters()]
    h = StraightThroughCheckpoint.apply(x, first, *params)
    for chosen in rest:
        h = checkpoint(functools.partial(run_blocks, chosen), h, use_reentrant=False)
    return h


def test_one_segment_checkpointed_of_several_is_not_called_the_whole_model():
    assert_fails(
        "09.checkpoint",
        first_segment_only,
        "for 8 blocks in 4 segments, backward recomputed 1 segment(s) of [2] blocks",
        "into 4 segments",
    )


def test_a_wrong_gradient_of_the_input_alone_is_caught():
    # the 8-block case's input needs no gradient, so the 10-block case is the first to fail
    assert_fails(
        "09.checkpoint",
        hand_written_first_segment,
        "for 10 blocks in 3 segments, the gradients differ from the plain forward's",
    )


# The checker's rules are stated for any N blocks in S segments (its module docstring);
# these run them on other cases than the checker's own.


@pytest.mark.parametrize("needs_grad", [False, True])
@pytest.mark.parametrize("answer", [whole_model, checkpoint_loop])
def test_with_one_segment_the_whole_model_checkpointed_is_right(monkeypatch, answer, needs_grad):
    monkeypatch.setattr(ch09_checkpointing, "CASES", [(4, 1, needs_grad)])
    monkeypatch.setattr(ch09_checkpointing, "SPLIT_CASES", [])
    monkeypatch.setattr(ch09_checkpointing, "LATER_CASES", [])
    assert_passes("09.checkpoint", answer)


@pytest.mark.parametrize("case", [(5, 2, True), (4, 2, False)])
@pytest.mark.parametrize("answer", [checkpoint_loop, checkpoint_seq])
def test_with_two_segments_one_left_unchecked_is_right(monkeypatch, answer, case):
    monkeypatch.setattr(ch09_checkpointing, "CASES", [case])
    monkeypatch.setattr(ch09_checkpointing, "SPLIT_CASES", [])
    monkeypatch.setattr(ch09_checkpointing, "LATER_CASES", [])
    assert_passes("09.checkpoint", answer)


@pytest.mark.filterwarnings("ignore:.*use_reentrant:UserWarning")
@pytest.mark.parametrize(
    "answer, parts",
    [
        (whole_model, ["whole model was checkpointed as one segment", "into 2 segments"]),
        (late_binding, ["recomputed block(s) [2, 3] more than once", "loop variable's last"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_with_two_segments_the_mistakes_are_named(monkeypatch, answer, parts):
    # 4 blocks: segments of the same size, so that recomputing the wrong one fails no check of
    # torch's, and the late-bound one runs exactly twice in backward
    monkeypatch.setattr(ch09_checkpointing, "CASES", [(4, 2, True)])
    monkeypatch.setattr(ch09_checkpointing, "SPLIT_CASES", [])
    monkeypatch.setattr(ch09_checkpointing, "LATER_CASES", [])
    assert_fails("09.checkpoint", answer, "for 4 blocks in 2 segments", *parts)


def nested_per_block(blocks, x, segments):
    """Each segment checkpointed, and each block inside it checkpointed again."""

    def run(chosen, h):
        for block in chosen:
            h = checkpoint(block, h, use_reentrant=False)
        return h

    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        chosen = [blocks[int(k)] for k in part]
        h = checkpoint(functools.partial(run, chosen), h, use_reentrant=False)
    return h


def test_a_checkpoint_nested_inside_each_segment_is_named_as_nested_not_as_a_late_binding():
    hint = assert_fails("09.checkpoint", nested_per_block, "more than once, and every "
                        "segment's blocks at least once: a checkpoint inside a checkpointed "
                        "segment (each block checkpointed again, nested)").hint  # fmt: skip
    assert "loop variable" not in hint, hint


def test_the_check_leaves_the_learners_random_numbers_alone():
    torch.manual_seed(123)
    expected = torch.rand(4)
    torch.manual_seed(123)
    assert_passes("09.checkpoint", checkpoint_loop)
    assert torch.equal(torch.rand(4), expected)


# 10 blocks in 4: where chunk, tensor_split and checkpoint_sequential cut differently.


def remainder_to_the_last(blocks, x, segments):
    """Segments of len // segments blocks, the remainder added to the last one, checkpointed:
    10 in 4 gives 2, 2, 2, 4, a segment longer than ceil(10 / 4) = 3."""
    size, h = len(blocks) // segments, x
    for k in range(segments):
        chosen = (
            list(blocks)[k * size :]
            if k == segments - 1
            else list(blocks)[k * size : (k + 1) * size]
        )
        h = checkpoint(run_blocks, chosen, h, use_reentrant=False)
    return h


def test_a_checkpointed_last_segment_given_the_remainder_is_named_on_10_blocks_in_4():
    assert_fails(
        "09.checkpoint", remainder_to_the_last, "for 10 blocks in 4 segments",
        "recomputed 4 segment(s) of [4, 2, 2, 2] blocks", "at most 3",
    )  # fmt: skip


def test_chunk_and_checkpoint_sequential_splits_pass_on_10_blocks_in_4(monkeypatch):
    from d2lgpu.checks.ch09_checkpointing import SPLIT_CASES

    assert SPLIT_CASES == [(10, 4, False)]
    # the later cases (9 in 4, where chunk gives 3 segments: test_redteam's r4_w01_torch_chunk)
    # are not this test's
    monkeypatch.setattr(ch09_checkpointing, "LATER_CASES", [])

    def by_chunk(blocks, x, segments):  # 3, 3, 3, 1
        h = x
        for part in torch.chunk(torch.arange(len(blocks)), segments):
            h = checkpoint(run_blocks, [blocks[int(i)] for i in part], h, use_reentrant=False)
        return h

    def sequential(blocks, x, segments):  # 2, 2, 2 checkpointed, then 4 without
        return checkpoint_sequential(torch.nn.Sequential(*blocks), segments, x, use_reentrant=False)

    assert_passes("09.checkpoint", by_chunk)
    assert_passes("09.checkpoint", sequential)


def ceil_steps(blocks, x, segments):
    """Segments in steps of ceil(n / segments): 9 blocks in 4 become 3, 3, 3."""
    size, h = -(-len(blocks) // segments), x
    for start in range(0, len(blocks), size):
        h = checkpoint(run_blocks, list(blocks)[start : start + size], h, use_reentrant=False)
    return h


def test_fewer_segments_than_asked_are_named_on_9_blocks_in_4():
    assert_fails(
        "09.checkpoint", ceil_steps, "for 9 blocks in 4 segments, backward recomputed 3 "
        "segments of [3, 3, 3] blocks", "that is 3 segments, not 4", "torch.tensor_split",
    )  # fmt: skip


def test_the_peak_during_backward_follows_the_blocks_alive():
    from d2lgpu.checks._ch09_ckpt_log import peak_blocks

    def log(*events):
        return [(i, phase, True, False) for i, phase in events]

    forward = [(i, "forward") for i in range(4)]
    # last segment [2, 3] plain: alive from the forward, freed as backward reaches them
    last_plain = log(*forward, (3, "done"), (2, "done"), (0, "backward"), (1, "backward"))
    assert peak_blocks(last_plain) == (2, [2, 3])
    # first segment [0, 1] plain: alive until the end, beside the recomputed [2, 3]
    first_plain = log(*forward, (2, "backward"), (3, "backward"), (3, "done"), (2, "done"))
    assert peak_blocks(first_plain) == (4, [0, 1])
    # a block run under no_grad in the forward pass keeps nothing
    assert peak_blocks([(0, "forward", False, True), (0, "backward", True, False)]) == (1, [])


def test_a_reentrant_checkpoint_with_right_gradients_is_named_not_the_peak():
    # use_reentrant=True with a detached input that requires a gradient: every parameter gets
    # its gradient, but the prompt asks for use_reentrant=False (and x's gradient is lost)
    def reentrant_detached(blocks, x, segments):
        h = x.detach().requires_grad_()
        for chosen in parts_of(blocks, segments):
            h = checkpoint(functools.partial(run_blocks, chosen), h, use_reentrant=True)
        return h

    hint = assert_fails(
        "09.checkpoint", reentrant_detached, "the segments ran in a reentrant checkpoint",
        "Pass use_reentrant=False",
    ).hint  # fmt: skip
    assert "peak" not in hint, hint


KEPT: list = []  # what the answers below keep between calls


def outputs_in_a_list(blocks, x, segments):
    """Every block's output appended to a module-level list, "to look at later"."""

    def traced(chosen, h):
        for block in chosen:
            h = block(h)
            KEPT.append(h)
        return h

    h = x
    for chosen in parts_of(blocks, segments):
        h = checkpoint(functools.partial(traced, chosen), h, use_reentrant=False)
    return h


def output_cached(blocks, x, segments):
    """The output kept in a cache between calls (keyed by the input's values)."""
    out = checkpoint_loop(blocks, x, segments)
    KEPT.append(out)
    return out


@pytest.mark.parametrize(
    ("answer", "blocks"),
    [(outputs_in_a_list, "[0, 1, 2, 3, 4, 5, 6, 7]"), (output_cached, "[7]")],
)
def test_block_outputs_held_after_backward_are_named(answer, blocks):
    KEPT.clear()
    assert_fails(
        "09.checkpoint", answer, f"the outputs of block(s) {blocks} were still alive after "
        "backward", "keep no reference to the blocks' outputs",
    )  # fmt: skip
    KEPT.clear()


def selective(policy):
    from torch.utils.checkpoint import create_selective_checkpoint_contexts

    def step(blocks, x, segments):
        h = x
        for chosen in parts_of(blocks, segments):
            h = checkpoint(
                functools.partial(run_blocks, chosen), h, use_reentrant=False,
                context_fn=functools.partial(create_selective_checkpoint_contexts, policy),
            )  # fmt: skip
        return h

    return step


def test_a_selective_checkpoint_that_keeps_products_is_named_one_that_keeps_nothing_passes():
    from torch.utils.checkpoint import CheckpointPolicy

    def save_products(ctx, op, *args, **kwargs):
        keep = op in (torch.ops.aten.mm.default, torch.ops.aten.addmm.default)
        return CheckpointPolicy.MUST_SAVE if keep else CheckpointPolicy.PREFER_RECOMPUTE

    assert_fails(
        "09.checkpoint", selective(save_products), "a selective checkpoint",
        "kept the outputs of aten.addmm.default", "leave context_fn out",
    )  # fmt: skip
    assert_passes(
        "09.checkpoint", selective(lambda ctx, op, *a, **k: CheckpointPolicy.PREFER_RECOMPUTE)
    )


# Round 21: what the answer does around its segments (d2lgpu/checks/_ch09_ckpt_rules.py).


def through_forward(blocks, x, segments):
    """Each block run as block.forward(h), skipping its hooks."""

    def run(chosen, h):
        for block in chosen:
            h = block.forward(h)
        return h

    h = x
    for chosen in parts_of(blocks, segments):
        h = checkpoint(functools.partial(run, chosen), h, use_reentrant=False)
    return h


def collect_each_segment(blocks, x, segments):
    """gc.collect() and empty_cache() after each segment, "to free the activations"."""
    import gc

    from torch.cuda import empty_cache  # seen however it was imported

    h = x
    for chosen in parts_of(blocks, segments):
        h = checkpoint(functools.partial(run_blocks, chosen), h, use_reentrant=False)
        gc.collect()
        empty_cache()
    return h


def input_needs_grad(blocks, x, segments):
    x.requires_grad_()  # "checkpoint needs an input that requires grad"
    return checkpoint_loop(blocks, x, segments)


def random_state_restored(blocks, x, segments):
    with torch.random.fork_rng(devices=[]):
        return checkpoint_loop(blocks, x, segments)


def reseeded(blocks, x, segments):
    torch.manual_seed(0)  # "reproducible dropout"
    return checkpoint_loop(blocks, x, segments)


def segments_in_eval_mode(blocks, x, segments):
    """Dropout off inside the segments "so that the recomputation matches", put back after."""
    modes = [m.training for m in blocks.modules()]
    blocks.eval()
    try:
        return checkpoint_loop(blocks, x, segments)
    finally:
        for m, mode in zip(blocks.modules(), modes, strict=True):
            m.training = mode


@pytest.mark.parametrize(
    ("answer", "parts"),
    [
        (segments_in_eval_mode, ["(with dropout), the output differs from the blocks applied "
                                 "in order: block(s) [0, 1, 2, 3", "ran in eval mode, though "
                                 "the caller left them in training mode", "preserve_rng_state"]),
        (through_forward, ["block(s) [0, 1, 2, 3, 4, 5, 6, 7] ran without their module hooks",
                           "block.forward(h)", "Call the block itself, block(h)"]),
        (collect_each_segment, ["called gc.collect() and torch.cuda.empty_cache() (8 call(s)",
                                "checkpoint frees each segment's activations by itself",
                                "Call neither"]),
        (input_needs_grad, ["set requires_grad on the caller's input x", "leave x as it is"]),
        (random_state_restored, ["(with dropout), the random generator is where it was before",
                                 "torch.random.fork_rng", "the same dropout masks"]),
        (reseeded, ["random generator ended elsewhere", "torch.manual_seed"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)  # fmt: skip
def test_what_the_answer_does_around_its_segments_is_named(answer, parts):
    assert_fails("09.checkpoint", answer, *parts)


def test_the_segment_count_is_named_where_all_blocks_are_checkpointed_or_a_tail_is_not():
    def sqrt_rule(blocks, x, segments):  # 8 blocks: 3 segments, whatever segments says
        return checkpoint_loop(blocks, x, round(len(blocks) ** 0.5))

    def last_two_plain(blocks, x, segments):
        h, parts = x, parts_of(blocks, segments)
        for k, chosen in enumerate(parts):
            run = functools.partial(run_blocks, chosen)
            h = checkpoint(run, h, use_reentrant=False) if k < len(parts) - 2 else run(h)
        return h

    assert_fails(
        "09.checkpoint", sqrt_rule, "3 segments where 4 were asked: every block was "
        "checkpointed, so your number of segments is 3",
    )  # fmt: skip
    assert_fails(
        "09.checkpoint", last_two_plain, "blocks 4 to 7 ran without a checkpoint",
        "only the last segment may be left unchecked",
    )  # fmt: skip


def test_housekeeping_calls_are_named_in_the_order_first_made_and_a_cleared_input_too():
    from d2lgpu.checks._ch09_ckpt_rules import check_housekeeping, check_input_left

    check_housekeeping([], "w")  # none: nothing to say
    said = rule_fails(
        check_housekeeping, ["torch.cuda.empty_cache", "gc.collect", "gc.collect"], "w"
    )
    assert said.startswith(
        "for w, your function called torch.cuda.empty_cache and gc.collect (3 call(s) in one "
        "forward): checkpoint frees each segment's activations by itself"
    ), said
    x = torch.ones(2)
    check_input_left(x, False, "w")  # left as it was
    said = rule_fails(check_input_left, x, True, "w")  # x required grad, and no longer does
    assert said.startswith("for w, your function cleared requires_grad on the caller's input x")
    said = rule_fails(check_input_left, x.requires_grad_(), False, "w")
    assert said.startswith("for w, your function set requires_grad on the caller's")


def test_blocks_of_an_earlier_call_are_named_with_whether_this_calls_blocks_ran():
    from d2lgpu.checks._ch09_ckpt_rules import check_fresh

    earlier = [["b0", "b1"], ["b0"]]
    check_fresh(earlier, [2, 1], ["b0"], "w")  # no earlier log grew: fresh
    for log, ran in (([], "none of"), (["b0"], "not only")):
        said = rule_fails(check_fresh, earlier, [2, 0], log, "w")  # the second call's ran again
        assert said.startswith(
            f"for w, blocks of an earlier call ran, {ran} the blocks passed in: something kept "
            "between calls"
        ), said


def test_blocks_changed_in_number_or_mode_are_named():
    from torch import nn

    from d2lgpu.checks._ch09_ckpt_rules import check_blocks_left

    blocks = nn.ModuleList(nn.Linear(2, 2) for _ in range(3))
    modes = [m.training for m in blocks.modules()]
    assert check_blocks_left(blocks, 3, modes, "3 blocks in 2 segments") is None
    blocks.append(nn.Sequential(blocks[0], blocks[1]))
    assert rule_fails(check_blocks_left, blocks, 3, modes, "3 blocks in 2 segments") == (
        "for 3 blocks in 2 segments, your function changed the caller's blocks: it was given 3 "
        "and left 4 (add_module, append or a segment registered on the ModuleList), so the "
        "caller's next forward runs other modules, some twice. Keep segments in a list of your "
        "own (or a slice, blocks[i:j]); leave blocks as it is"
    )
    del blocks[3]
    blocks[1].eval()  # one block's mode changed, the list's not
    said = rule_fails(check_blocks_left, blocks, 3, modes, "3 blocks in 2 segments")
    assert said == (
        "for 3 blocks in 2 segments, your function left the blocks in another mode than it was "
        "given (.train() or .eval(): 1 module(s) changed): that changes what they compute "
        "(dropout) for the caller, and here for the forward too. Run the blocks in the mode "
        "they come in"
    )


def test_a_backward_that_moves_the_global_generator_is_named():
    from d2lgpu.checks._ch09_ckpt_rules import check_backward_random_state

    state = torch.get_rng_state()
    assert check_backward_random_state(state, state.clone(), "8 blocks in 4 segments") is None
    torch.rand(1)
    moved = torch.get_rng_state()
    assert rule_fails(check_backward_random_state, state, moved, "8 blocks in 4 segments") == (
        "for 8 blocks in 4 segments, backward moved the global random generator: the "
        "recomputation in backward drew its dropout masks from it anew "
        "(preserve_rng_state=False), or reseeded it (torch.manual_seed inside a segment), and "
        "left it there. Drawn anew, the masks are not the forward's, so the gradients belong "
        "to other masks; either way the caller's next random draws (the next step's dropout "
        "masks) are not the ones it would get. Leave preserve_rng_state=True, checkpoint's "
        "default: it saves the generator's state at the forward, replays it for the "
        "recomputation and puts it back; and reseed nothing"
    )


def test_children_of_the_blocks_called_directly_are_named():
    def children_only(blocks, x, segments):
        h = x
        for block in blocks:
            h = block.inner(h)  # the block's residual is skipped
        return h

    hint = assert_fails("09.checkpoint", children_only).hint
    assert hint.startswith(
        "for 8 blocks in 4 segments, none of the 8 blocks ran as a block, though their "
        "parameters were used: their children were called directly (block.inner, "
        "block.children()), which skips what each block adds around them"
    )


def test_saved_tensor_hooks_of_the_answers_own_are_named_and_checkpoints_are_not():
    # round 27: save_on_cpu around the blocks hides what is saved from the count
    from d2lgpu.checks._ch09_ckpt_rules import check_housekeeping, housekeeping

    block = torch.nn.Linear(2, 2)
    with housekeeping() as calls:
        torch.utils.checkpoint.checkpoint(block, torch.ones(1, 2), use_reentrant=False)
    check_housekeeping(calls, "w")  # checkpoint's own hooks: nothing to say
    with housekeeping() as calls, torch.autograd.graph.save_on_cpu():
        block(torch.ones(1, 2))
    said = rule_fails(check_housekeeping, calls, "w")
    assert said.startswith(
        "for w, your function installed saved-tensor hooks "
        "(torch.autograd.graph.save_on_cpu) around the blocks"
    ), said


def test_a_check_called_from_a_learners_cell_does_not_count_the_checkers_own_seeds():
    """A notebook cell (learner code) calls check(): the checker's torch.manual_seed calls,
    made under that cell's frame, are the checker's, not the answer's (the watch looks at
    the first frame out from a seed that is not a library's: the course's, here)."""
    space: dict = {}
    code = compile(
        "import torch\n"
        "from torch.utils.checkpoint import checkpoint_sequential\n"
        "from d2lgpu.grading import check\n"
        "def answer(blocks, x, segments):\n"
        "    seq = torch.nn.Sequential(*blocks)\n"
        "    return checkpoint_sequential(seq, segments, x, use_reentrant=False)\n"
        "def cell():\n    return check('09.checkpoint', answer, quiet=True)\n",
        "cell.py",
        "exec",
    )
    exec(code, space)  # noqa: S102 - a learner's cell, as a file outside the course
    result = space["cell"]()
    assert result.status == "passed", result.hint


def test_blocks_left_unchecked_beyond_one_last_segment_are_named_with_the_split_to_use():
    from d2lgpu.checks._ch09_ckpt_rules import check_enough_checkpointed
    from d2lgpu.checks._util import CheckFailed

    with pytest.raises(CheckFailed) as raised:
        check_enough_checkpointed([[0], [1], [2]], 8, 4, "8 blocks in 4 segments")
    assert raised.value.hint == (
        "for 8 blocks in 4 segments, only 3 of 8 blocks were checkpointed (backward recomputed "
        "segments of [1, 1, 1] blocks): 5 ran without a checkpoint, more than one last segment "
        "of at most ceil(8 / 4) = 2 may hold. Cut the 8 blocks into 4 segments whose sizes "
        "differ by at most one (torch.tensor_split gives 2, 2, 2, 2) and checkpoint each (the "
        "last one may run without)"
    )
    check_enough_checkpointed([[0, 1], [2, 3], [4, 5]], 8, 4, "")  # the last 2 unchecked
    check_enough_checkpointed([[0, 1], [2, 3], [4, 5]], 11, 4, "")  # checkpoint_sequential's
    with pytest.raises(CheckFailed, match=r"tensor_split gives 4, 3, 3\)"):
        check_enough_checkpointed([[0, 1], [2, 3]], 10, 3, "")  # 6 unchecked, 4 may be


@pytest.mark.parametrize(
    ("runs", "n", "s", "named"),
    [
        ([[i] for i in range(8)], 8, 4, "each block alone"),
        (
            [[0, 1, 2], [3, 4, 5], [6, 7]],
            8,
            4,
            "3 segments where 4 were asked: every block was checkpointed, so your number of "
            "segments is 3",
        ),
        (
            [[0, 1]],
            8,
            4,
            "1 segments where 4 were asked: blocks 2 to 7 ran without a checkpoint, their "
            "activations kept through backward; only the last segment may be left unchecked",
        ),
        (
            [[2, 3], [4, 5]],
            8,
            4,
            "2 segments where 4 were asked: blocks [0, 1, 6, 7] ran without a checkpoint, not "
            "only after the last checkpointed one, their activations kept through backward; "
            "only the last segment may be left unchecked",
        ),
        ([[0], [1], [2], [3], [4]], 8, 4, "5 segments where 4 were asked"),
        # one segment too long, the blocks after it plain: the count is what is named
        ([[0, 1, 2, 3, 4]], 8, 4, "1 segments where 4 were asked"),
        # as many segments as may be, one too long: its length, not the plain blocks before
        ([[3, 4, 5], [6], [7]], 8, 4, "one of 3 blocks, longer than ceil(8 / 4) = 2"),
        ([[0, 1, 2], [3, 4], [5, 6]], 8, 4, "one of 3 blocks, longer than ceil(8 / 4) = 2"),
    ],
)
def test_segments_of_the_wrong_number_or_size_are_named_by_what_went_wrong(runs, n, s, named):
    from d2lgpu.checks._ch09_ckpt_rules import segments_named

    assert segments_named(runs, n, s) == named


def test_an_answer_that_is_no_function_is_named_by_its_type():
    assert assert_fails("09.checkpoint", 3).hint == (
        "pass the function itself, checkpointed_forward, not an object of type int"
    )
