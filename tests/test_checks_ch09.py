"""Chapter 9's checkers: correct answers in several styles pass, realistic wrong ones fail
with a hint that names the mistake."""

import functools
import re
import threading

import pytest
import torch
from grading_helpers import assert_fails, assert_passes
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

from d2lgpu.grading import check
from d2lgpu.pipeline import micro_batches

# ---------------------------------------------------------------------------------------------
# 09.pipeline: pipeline_step(stage1, stage2, x, y, loss_fn, M) -> loss


def devices(stage1, stage2):
    return next(stage1.parameters()).device, next(stage2.parameters()).device


def pipeline_gpipe(stage1, stage2, x, y, loss_fn, m):
    """All forwards, then one backward of the weighted sum."""
    return gpipe_on(devices(stage1, stage2), stage1, stage2, x, y, loss_fn, m)


def gpipe_on(on, stage1, stage2, x, y, loss_fn, m):
    """`pipeline_gpipe` with the stages' devices `on` (d1, d2), however they were found."""
    d1, d2 = on
    losses = []
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
        h = stage1(xb.to(d1))
        losses.append(loss_fn(stage2(h.to(d2)), yb.to(d2)) * (len(xb) / len(x)))
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def pipeline_losses_backward(stage1, stage2, x, y, loss_fn, m):
    """All forwards, then each micro-batch's backward; a float returned (one host read)."""
    d1, d2 = devices(stage1, stage2)
    k = min(m, len(x))
    outs = [stage2(stage1(xb.to(d1)).to(d2)) for xb in torch.tensor_split(x, k)]
    losses = [
        loss_fn(out, yb.to(d2)) * len(out) / len(x)
        for out, yb in zip(outs, torch.tensor_split(y, k), strict=True)
    ]
    for loss in losses:
        loss.backward()
    return float(sum(loss.detach() for loss in losses))


def backward_per_micro_batch(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    total = 0
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
        h = stage1(xb.to(d1))
        loss = loss_fn(stage2(h.to(d2)), yb.to(d2)) * (len(xb) / len(x))
        loss.backward()
        total = total + loss.detach()
    return total


def pipeline_one_ahead(stage1, stage2, x, y, loss_fn, m):
    """Stage 1 runs one micro-batch ahead; one backward of the weighted sum at the end."""
    d1, d2 = devices(stage1, stage2)
    k = min(m, len(x))
    xs, ys = torch.tensor_split(x, k), torch.tensor_split(y, k)
    ahead = stage1(xs[0].to(d1)).to(d2)
    losses = []
    for i in range(k):
        current = ahead
        if i + 1 < k:
            ahead = stage1(xs[i + 1].to(d1)).to(d2)
        losses.append(loss_fn(stage2(current), ys[i].to(d2), reduction="sum"))
    loss = torch.stack(losses).sum() / len(x)
    loss.backward()
    return loss


def without_micro_batches(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    loss = loss_fn(stage2(stage1(x.to(d1)).to(d2)), y.to(d2))
    loss.backward()
    return loss


def forwards(stage1, stage2, x, y, loss_fn, m, *, split=micro_batches, mistake=None):
    """Each micro-batch's weighted loss, GPipe style, with at most one `mistake`."""
    d1, d2 = devices(stage1, stage2)
    losses = []
    parts = list(zip(split(x, m), split(y, m), strict=True))
    for xb, yb in parts:
        h = stage1(xb.to(d1))
        h = h.detach().to(d2) if mistake == "detach" else h if mistake == "h stays" else h.to(d2)
        yb = yb if mistake == "y stays" else yb.to(d2)
        loss = loss_fn(stage2(h), yb)
        share = {"summed": 1, "unweighted": 1 / len(parts)}.get(mistake, len(xb) / len(x))
        losses.append(loss * share)
    return losses


def split_by(split, name):
    """A GPipe step whose micro-batches are split(x, m), e.g. torch.chunk."""

    def step(stage1, stage2, x, y, loss_fn, m):
        loss = sum(forwards(stage1, stage2, x, y, loss_fn, m, split=split))
        loss.backward()
        return loss.detach()

    step.__name__ = name
    return step


with_chunk = split_by(torch.chunk, "with_chunk")  # may give fewer than m micro-batches
split_without_min = split_by(torch.tensor_split, "split_without_min")  # empty ones when n < m


def one_mistake(mistake):
    def step(stage1, stage2, x, y, loss_fn, m):
        loss = sum(forwards(stage1, stage2, x, y, loss_fn, m, mistake=mistake))
        loss.backward()
        return loss.detach()

    step.__name__ = mistake.replace(" ", "_")
    return step


def item_per_micro_batch(stage1, stage2, x, y, loss_fn, m):
    losses, total = [], 0.0
    for loss in forwards(stage1, stage2, x, y, loss_fn, m):
        losses.append(loss)
        total += loss.item()  # a host read per micro-batch
    sum(losses).backward()
    return total


def zero_grad_between(stage1, stage2, x, y, loss_fn, m):
    losses = forwards(stage1, stage2, x, y, loss_fn, m)
    for loss in losses:
        stage1.zero_grad(), stage2.zero_grad()  # a training loop's habit
        loss.backward()
    return sum(loss.detach() for loss in losses)


def stage_one_first(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    hs = [stage1(xb.to(d1)).to(d2) for xb in micro_batches(x, m)]  # all of stage 1 first
    ys = micro_batches(y, m)
    loss = sum(
        loss_fn(stage2(h), yb.to(d2)) * len(h) / len(x) for h, yb in zip(hs, ys, strict=True)
    )
    loss.backward()
    return loss.detach()


def no_return(stage1, stage2, x, y, loss_fn, m):
    pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)


def last_loss_returned(stage1, stage2, x, y, loss_fn, m):
    losses = forwards(stage1, stage2, x, y, loss_fn, m)
    sum(losses).backward()
    return losses[-1].detach()


def forward_only(stage1, stage2, x, y, loss_fn, m):
    return sum(forwards(stage1, stage2, x, y, loss_fn, m))


def stage2_moved_to_stage1(stage1, stage2, x, y, loss_fn, m):
    d1, _ = devices(stage1, stage2)
    stage2.to(d1)
    return pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)


def two_host_reads(stage1, stage2, x, y, loss_fn, m):
    loss = sum(forwards(stage1, stage2, x, y, loss_fn, m))
    loss.backward()
    print_me = loss.detach().item()  # a read to log it...
    assert print_me == print_me
    return float(loss.detach())  # ...and another one to return it


def stage2_in_pairs(stage1, stage2, x, y, loss_fn, m):
    """Stage 1 per micro-batch, stage 2 on two of them at a time: other micro-batches."""
    d1, d2 = devices(stage1, stage2)
    xs, ys = micro_batches(x, m), micro_batches(y, m)
    losses, held = [], []
    for i, xb in enumerate(xs):
        held.append(stage1(xb.to(d1)).to(d2))
        if len(held) == 2 or i == len(xs) - 1:
            h, yb = torch.cat(held), torch.cat(ys[i + 1 - len(held) : i + 1]).to(d2)
            losses.append(loss_fn(stage2(h), yb) * (len(h) / len(x)))
            held = []
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def graded(exercise, answer):
    return check(exercise, answer, quiet=True)


def fails(exercise, answer, *parts):
    result = graded(exercise, answer)
    assert result.status == "failed", str(result)
    for part in parts:
        assert part in result.hint, f"{part!r} not in: {result.hint}"
    return result


# A 09.pipeline hint opens with the case that failed, so that the learner can rerun it.
CASE = re.compile(r"for a batch of \d+ rows in \d+ micro-batch(es)?, ")


@pytest.mark.parametrize("answer", [pipeline_gpipe, pipeline_one_ahead, pipeline_losses_backward])
def test_correct_pipelines_pass(answer):
    result = graded("09.pipeline", answer)
    assert result.ok, str(result)
    assert len(result.passed) == 5


@pytest.mark.parametrize(
    "answer, parts",
    [
        (without_micro_batches, ["whole batch went through stage 1 in one call"]),
        (with_chunk, ["torch.chunk", "tensor_split"]),
        (one_mistake("unweighted"), ["plain mean", "its share of the batch's rows"]),
        (one_mistake("summed"), ["about 4 times too large"]),
        (one_mistake("detach"), ["stage 1's are not", ".detach()"]),
        (one_mistake("h stays"), ["stage 2's input was on stage 1's device (cuda:", "to()"]),
        (one_mistake("y stays"), ["loss_fn's targets were on the CPU", "stage 2's device"]),
        (item_per_micro_batch, ["read device values on the host", "once, at the end"]),
        (two_host_reads, ["read device values on the host 2 times"]),
        (stage2_in_pairs, ["stage 1 got micro-batches of [3, 3, 2, 2] rows and stage 2 of [6, 4]"]),
        (zero_grad_between, ["last micro-batch's only", "zero_grad"]),
        (stage_one_first, ["stage 2 started only after stage 1 had run every micro-batch"]),
        (backward_per_micro_batch, ["backward ran before the last micro-batch's forward", "GPipe"]),
        (split_without_min, ["empty micro-batch", "min(M, len(x))"]),
        (no_return, ["returned NoneType", "return the loss of the whole batch"]),
        (last_loss_returned, ["the unsplit model's", "weighted by their sizes"]),
        (forward_only, ["the ones the stages had before the step", "call backward"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_wrong_pipelines_fail_with_a_hint_that_names_the_mistake(answer, parts):
    result = fails("09.pipeline", answer, *parts)
    assert answer is no_return or CASE.match(result.hint), result.hint


# The stages start with gradients (the caller's to zero): a reset inside the step is seen.


def zero_grad_first(stage1, stage2, x, y, loss_fn, m):
    stage1.zero_grad(), stage2.zero_grad()  # "a clean start", which the prompt leaves to the caller
    return pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)


def grads_kept_at_zero(stage1, stage2, x, y, loss_fn, m):
    for p in [*stage1.parameters(), *stage2.parameters()]:
        if p.grad is not None:
            p.grad.zero_()  # in place, as zero_grad(set_to_none=False)
    return pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)


def grads_set_to_none_and_forward_only(stage1, stage2, x, y, loss_fn, m):
    stage1.zero_grad(set_to_none=True), stage2.zero_grad(set_to_none=True)
    return sum(forwards(stage1, stage2, x, y, loss_fn, m)).detach()


def grads_assigned_none(stage1, stage2, x, y, loss_fn, m):
    for p in [*stage1.parameters(), *stage2.parameters()]:
        p.grad = None
    return pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)


# loss_fn differs between cases: one written in is seen.


def cross_entropy_written_in(stage1, stage2, x, y, loss_fn, m):
    return pipeline_gpipe(stage1, stage2, x, y, torch.nn.functional.cross_entropy, m)


def loss_module_written_in(stage1, stage2, x, y, loss_fn, m):
    return pipeline_gpipe(stage1, stage2, x, y, torch.nn.CrossEntropyLoss(), m)


# One host read, but early: stage 1 waits for it.


def item_of_the_first_loss(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    losses = []
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
        losses.append(loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x)))
        if len(losses) == 1 and not torch.isfinite(losses[0]).item():  # one check, early
            raise FloatingPointError("the loss is not finite")
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def print_in_the_loop(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    losses = []
    for i, (xb, yb) in enumerate(zip(micro_batches(x, m), micro_batches(y, m), strict=True)):
        losses.append(loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x)))
        if i == 0:
            print("first micro-batch:", losses[0])  # one print, early
    loss = sum(losses)
    loss.backward()
    return loss.detach()


@pytest.mark.parametrize(
    "answer, parts",
    [
        (zero_grad_first, ["had before the step are gone", "zero_grad()", "caller zeros"]),
        (grads_kept_at_zero, ["had before the step are gone", "p.grad = None"]),
        (grads_set_to_none_and_forward_only, ["no parameter has a gradient", "zero_grad() does"]),
        (grads_assigned_none, ["had before the step are gone", "the checker gave them some"]),
        (
            cross_entropy_written_in,
            ["a batch of 3 rows", "the loss it returned is cross_entropy's", "loss_fn"],
        ),
        (
            loss_module_written_in,
            ["the loss it returned is cross_entropy's", "the loss_fn you were given"],
        ),
        (item_of_the_first_loss, ["item()", "before the last micro-batch's forward"]),
        (print_in_the_loop, ["__repr__", "before the last micro-batch's forward"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_resets_written_in_losses_and_early_reads_are_named(answer, parts):
    assert CASE.match(assert_fails("09.pipeline", answer, *parts).hint)


class PipelineStep:
    """A callable object; its running total is accumulated in place on stage 2's device."""

    def __call__(self, stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        total = torch.zeros((), device=d2)
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
            out = stage2(stage1(xb.to(d1)).to(d2))
            total += loss_fn(out, yb.to(d2)).mul(len(xb) / len(x))  # in place
        total.backward()
        return total.detach()


def step_with(stage1, stage2, x, y, loss_fn, m, *, weigh):
    """All forwards, the losses stacked with out=, each weighted by `weigh`."""
    d1, d2 = devices(stage1, stage2)
    k = min(m, len(x))
    pairs = zip(torch.tensor_split(x, k), torch.tensor_split(y, k), strict=True)
    losses = [
        weigh(loss_fn(stage2(stage1(a.to(d1)).to(d2)), b.to(d2)), len(a), len(x)) for a, b in pairs
    ]
    loss = torch.stack(losses).sum()
    loss.backward()
    value = loss.detach().cpu().numpy()  # one host read, at the end: a numpy round-trip
    return torch.from_numpy(value.copy())


@pytest.mark.parametrize(
    "answer",
    [
        PipelineStep(),
        functools.partial(step_with, weigh=lambda loss, rows, n: loss * rows / n),
        functools.partial(step_with, weigh=lambda loss, rows, n: torch.mul(loss, rows / n)),
    ],
    ids=["callable_object_in_place_total", "partial_numpy_round_trip", "torch_mul"],
)
def test_pipelines_in_other_styles_pass(answer):
    assert_passes("09.pipeline", answer)


def test_a_stage_moved_to_the_other_device_is_named():
    fails("09.pipeline", stage2_moved_to_stage1, "parameters were replaced or moved")


# ---------------------------------------------------------------------------------------------
# 09.checkpoint: checkpointed_forward(blocks, x, segments) -> out


def run_blocks(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpoint_loop(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        run = functools.partial(run_blocks, [blocks[int(i)] for i in part])
        h = checkpoint(run, h, use_reentrant=False)
    return h


def checkpoint_seq(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x, use_reentrant=False)


def checkpoint_defaults(blocks, x, segments):
    # tensor_split's bounds: a loop in steps of ceil(n / segments) gives 9 blocks in 4 as
    # 3, 3, 3, three segments where four were asked
    bounds = [int(p[0]) for p in torch.tensor_split(torch.arange(len(blocks)), segments)]
    h = x
    for start, end in zip(bounds, bounds[1:] + [len(blocks)], strict=True):

        def segment(h, start=start, end=end):
            return run_blocks(blocks[start:end], h)

        h = checkpoint(segment, h, use_reentrant=False)
    return h


def no_checkpoint(blocks, x, segments):
    return run_blocks(blocks, x)


def whole_model(blocks, x, segments):
    return checkpoint(run_blocks, blocks, x, use_reentrant=False)


def reentrant_default(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(run_blocks, [blocks[int(i)] for i in part]), h)
    return h


def per_block(blocks, x, segments):
    h = x
    for block in blocks:
        h = checkpoint(block, h, use_reentrant=False)
    return h


def late_binding(blocks, x, segments):
    size = -(-len(blocks) // segments)
    h = x
    for start in range(0, len(blocks), size):
        run = lambda h: run_blocks(blocks[start : start + size], h)  # noqa: B023, E731
        h = checkpoint(run, h, use_reentrant=False)
    return h


def floor_segments(blocks, x, segments):
    size = len(blocks) // segments
    h = x
    for k in range(segments):
        run = functools.partial(run_blocks, blocks[k * size : (k + 1) * size])
        h = checkpoint(run, h, use_reentrant=False)
    return h


def detach_between(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        run = functools.partial(run_blocks, [blocks[int(i)] for i in part])
        h = checkpoint(run, h.detach(), use_reentrant=False)
    return h


def under_no_grad(blocks, x, segments):
    with torch.no_grad():
        return run_blocks(blocks, x)


def stray_activations(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        run = functools.partial(run_blocks, [blocks[int(i)] for i in part])
        h = checkpoint(run, h, use_reentrant=False)
        aux = torch.exp(h.repeat(1, 4)).mean()  # a statistic with a graph, outside the checkpoint
        h = h + 0 * aux
    return h


def reversed_segments(blocks, x, segments):
    h = x
    for part in reversed(torch.tensor_split(torch.arange(len(blocks)), segments)):
        h = checkpoint(
            functools.partial(run_blocks, [blocks[int(i)] for i in part]), h, use_reentrant=False
        )
    return h


def returns_segment_outputs(blocks, x, segments):
    outs, h = [], x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(
            functools.partial(run_blocks, [blocks[int(i)] for i in part]), h, use_reentrant=False
        )
        outs.append(h)
    return outs


def first_block_of_each_segment(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(blocks[int(part[0])], h, use_reentrant=False)  # only the first one
        h = run_blocks([blocks[int(i)] for i in part[1:]], h)
    return h


def returns_detached(blocks, x, segments):
    return checkpoint_loop(blocks, x, segments).detach()


def plain_then_checkpoint(blocks, x, segments):
    run_blocks(blocks, x)  # "to compare": a whole forward for nothing
    return checkpoint_loop(blocks, x, segments)


def by_sizes(blocks, x, sizes):
    h, start = x, 0
    for size in sizes:
        run = functools.partial(run_blocks, blocks[start : start + size])
        h = checkpoint(run, h, use_reentrant=False)
        start += size
    return h


def uneven_segments(blocks, x, segments):
    """As many segments as asked, 1, 1, ... and the rest: one long segment."""
    return by_sizes(blocks, x, [1] * (segments - 1) + [len(blocks) - segments + 1])


def one_block_too_long(blocks, x, segments):
    """tensor_split's sizes, with a block moved from the first segment to the last."""
    sizes = [len(p) for p in torch.tensor_split(torch.arange(len(blocks)), segments)]
    sizes[0], sizes[-1] = sizes[0] - 1, sizes[-1] + 1
    return by_sizes(blocks, x, [n for n in sizes if n])


def floor_size_loop(blocks, x, segments):
    size = len(blocks) // segments  # 10 blocks in 3: 3, 3, 3 and 1, a segment too many
    return by_sizes(blocks, x, [len(blocks[i : i + size]) for i in range(0, len(blocks), size)])


def two_segments_checkpointed(blocks, x, segments):
    h = x
    for k, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        run = functools.partial(run_blocks, [blocks[int(i)] for i in part])
        h = checkpoint(run, h, use_reentrant=False) if k < 2 else run(h)
    return h


def detached_input(blocks, x, segments):
    return checkpoint_loop(blocks, x.detach(), segments)  # "data needs no gradient"


@pytest.mark.parametrize("answer", [checkpoint_loop, checkpoint_seq, checkpoint_defaults])
def test_correct_checkpointing_passes(answer):
    result = graded("09.checkpoint", answer)
    assert result.ok, str(result)
    assert len(result.passed) == 4


@pytest.mark.filterwarnings("ignore:.*use_reentrant:UserWarning")
@pytest.mark.filterwarnings("ignore:None of the inputs have requires_grad:UserWarning")
@pytest.mark.parametrize(
    "answer, parts",
    [
        (no_checkpoint, ["no block was recomputed", "nothing was checkpointed"]),
        (whole_model, ["whole model was checkpointed as one segment"]),
        (reentrant_default, ["use_reentrant=False"]),
        (per_block, ["recomputed 8 segment(s)", "into 4 segments"]),
        (late_binding, ["more than once", "loop variable's last value"]),
        (floor_segments, ["never ran", "remainder"]),
        (detach_between, ["got no gradient", ".detach()"]),
        (under_no_grad, ["torch.no_grad()"]),
        (plain_then_checkpoint, ["ran 2 times in the forward pass"]),
        (reversed_segments, ["output differs from the blocks applied in order"]),
        (returns_segment_outputs, ["returned list", "return the output tensor"]),
        (first_block_of_each_segment, ["only 4 of 8 blocks were checkpointed"]),
        (returns_detached, ["no graph", "not a detached copy"]),
        # 8 blocks in 4: 4 segment inputs of 5 x 8 floats (160 B each) and 2 blocks' activations
        # (480 B each: the first Linear's input, and tanh's output, which the second one saves)
        (
            stray_activations,
            [
                "for 8 blocks in 4 segments",
                "more than the 1.6 KiB of 4 segment",
                "something else keeps activations",
            ],
        ),
        (uneven_segments, ["of [5, 1, 1, 1] blocks", "4 segments of at most 2"]),
        (one_block_too_long, ["for 8 blocks in 4 segments", "of [3, 2, 2, 1] blocks", "at most 2"]),
        (
            floor_size_loop,
            ["for 10 blocks in 3 segments", "recomputed 4 segment(s)", "into 3 segments"],
        ),
        (two_segments_checkpointed, ["recomputed 2 segment(s)", "into 4 segments"]),
        (detached_input, ["for 10 blocks in 3 segments", "input x needs a gradient", "x.detach()"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_wrong_checkpointing_fails_with_a_hint_that_names_the_mistake(answer, parts):
    result = fails("09.checkpoint", answer, *parts)
    assert re.match(r"for \d+ blocks in \d+ segments, ", result.hint), result.hint  # the case


def sequential_left_reentrant(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x)  # use_reentrant left out: True


def sequential_reentrant_true(blocks, x, segments):
    return checkpoint_sequential(blocks, segments, x, use_reentrant=True)


def reentrant_and_detached(blocks, x, segments):
    h = x
    for k, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        run = functools.partial(run_blocks, [blocks[int(i)] for i in part])
        last = k == segments - 1
        h = run(h.detach()) if last else checkpoint(run, h, use_reentrant=True)
    return h


@pytest.mark.filterwarnings("ignore:.*use_reentrant:UserWarning")
@pytest.mark.filterwarnings("ignore:None of the inputs have requires_grad:UserWarning")
@pytest.mark.parametrize(
    "answer, parts",
    [
        (sequential_left_reentrant, ["got no gradient", "reentrant", "use_reentrant=False"]),
        (sequential_reentrant_true, ["block(s) [0, 1, 2, 3, 4, 5] got no gradient", "reentrant"]),
        (reentrant_and_detached, ["use_reentrant=False", ".detach()"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_a_reentrant_checkpoint_is_named_not_a_cut_graph(answer, parts):
    result = assert_fails("09.checkpoint", answer, *parts)
    assert re.match(r"for \d+ blocks in \d+ segments, ", result.hint), result.hint


class Checkpointed:
    """A callable object, segments from numpy's array_split, blocks run by a helper."""

    def __call__(self, blocks, x, segments):
        import numpy as np

        h = x
        for part in np.array_split(np.arange(len(blocks)), segments):
            chosen = [blocks[int(i)] for i in part]
            h = torch.utils.checkpoint.checkpoint(self.run, chosen, h, use_reentrant=False)
        return h

    @staticmethod
    def run(chosen, h):
        for block in chosen:
            h = block(h)
        return h


def checkpoint_seq_module(blocks, x, segments):
    """checkpoint_sequential on an nn.Sequential of the blocks, and a print of the shapes."""
    out = checkpoint_sequential(torch.nn.Sequential(*blocks), segments, x, use_reentrant=False)
    print("checkpointed", len(blocks), "blocks:", tuple(out.shape))
    return out


@pytest.mark.parametrize(
    "answer",
    [
        Checkpointed(),
        checkpoint_seq_module,
    ],
    ids=["callable_object", "sequential_module"],
)
def test_checkpointing_in_other_styles_passes(answer):
    assert_passes("09.checkpoint", answer)


def stub(*args):
    raise NotImplementedError("your code here")


@pytest.mark.parametrize("exercise", ["09.pipeline", "09.checkpoint"])
def test_stub_is_not_attempted_and_a_non_function_is_refused(exercise):
    assert graded(exercise, stub).status == "not attempted"
    result = graded(exercise, 42)
    assert result.status == "failed" and "pass the function itself" in result.hint


def test_the_pipeline_check_compares_in_full_float32_and_restores_the_precision():
    before = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("medium")  # as a notebook that switched TF32 on
    try:
        assert graded("09.pipeline", pipeline_gpipe).ok
        assert torch.get_float32_matmul_precision() == "medium"
    finally:
        torch.set_float32_matmul_precision(before)


def test_the_pipeline_stages_go_on_two_gpus_or_two_pretend_ones_never_stage_1_on_the_cpu(gpus):
    # where 09.pipeline places stage 1 and stage 2, and whether the GPUs are pretended: stage 1
    # on the CPU, where x arrives, would let a micro-batch left there pass
    from d2lgpu.checks._ch09_stages import layouts

    two = (torch.device("cuda", 0), torch.device("cuda", 1))
    gpus(3)
    assert layouts() == [(*two, False)]
    gpus(2)
    assert layouts() == [(*two, False)]
    gpus(1)  # pretend ones, then for real: the CPU and the GPU
    assert layouts() == [(*two, True), (torch.device("cpu"), torch.device("cuda", 0), False)]
    gpus(0)
    assert layouts() == [(*two, True)]


def test_an_output_of_the_wrong_shape_is_named_with_its_shape():
    def sums_the_rows(blocks, x, segments):
        return run_blocks(list(blocks), x).sum(0)

    hint = fails("09.checkpoint", sums_the_rows, "returned (8,): return the output tensor").hint
    assert hint.startswith("for 8 blocks in 4 segments, checkpointed_forward returned (8,)")


class StraightThroughCheckpoint(torch.autograd.Function):
    """A hand-written checkpoint whose backward passes the output's gradient on to the input
    unchanged (as if the segment were the identity): the parameter gradients inside a segment
    are right, those of every earlier segment are wrong."""

    @staticmethod
    def forward(ctx, h, chosen, *params):  # the parameters, so that the output has a graph
        ctx.chosen = chosen
        ctx.save_for_backward(h)
        with torch.no_grad():
            return run_blocks(chosen, h)

    @staticmethod
    def backward(ctx, grad_out):
        (h,) = ctx.saved_tensors
        with torch.enable_grad():
            out = run_blocks(ctx.chosen, h.detach().requires_grad_())
        torch.autograd.backward(out, grad_out)
        return grad_out, None, *[None] * len(ctx.needs_input_grad[2:])  # h's: wrong


def straight_through_backward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        chosen = [blocks[int(i)] for i in part]
        params = [p for b in chosen for p in b.parameters()]
        h = StraightThroughCheckpoint.apply(h, chosen, *params)
    return h


def bfloat16_blocks(blocks, x, segments):
    """Autocast "to save memory as well": bfloat16 Linear layers, the output cast back."""
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return checkpoint_loop(blocks, x, segments).float()


def reentrant_block_forward(blocks, x, segments):
    h = x
    for block in blocks:
        h = checkpoint(block.forward, h)  # the bound forward, use_reentrant left out
    return h


@pytest.mark.filterwarnings("ignore:.*use_reentrant:UserWarning")
@pytest.mark.filterwarnings("ignore:None of the inputs have requires_grad:UserWarning")
@pytest.mark.parametrize(
    "answer, parts",
    [
        (straight_through_backward, ["8 blocks in 4", "gradients differ from the plain forward"]),
        (bfloat16_blocks, ["8 blocks in 4", "output differs from the blocks applied in order"]),
        (reentrant_block_forward, ["8 blocks in 4", "no graph", "use_reentrant=True"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_wrong_gradients_low_precision_and_a_reentrant_bound_forward_are_named(answer, parts):
    assert_fails("09.checkpoint", answer, *parts)


def test_the_too_much_saved_hint_says_how_much_was_saved():
    hint = fails("09.checkpoint", stray_activations, "something else keeps activations").hint
    assert re.search(r"segments, \d+(\.\d+)? (B|KiB|MiB) were saved for backward", hint), hint


def weighted_report(backward_of, zero_first=False):
    """The loss returned is weighted right; backward runs on the micro-batches' mean losses
    summed (`backward_of="summed"`) or averaged ("averaged"), after a zero_grad() or not."""

    def step(stage1, stage2, x, y, loss_fn, m):
        if zero_first:
            stage1.zero_grad(), stage2.zero_grad()
        d1, d2 = devices(stage1, stage2)
        losses, report = [], []
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
            loss = loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2))
            losses.append(loss)
            report.append(loss.detach() * (len(xb) / len(x)))
        total = sum(losses)
        (total if backward_of == "summed" else total / len(losses)).backward()
        return sum(report)

    return step


@pytest.mark.parametrize(
    "answer, hint",
    [
        (weighted_report("summed"), "the loss you returned is right, but the gradients are "
         "about 4 times too large: backward ran on the micro-batches' mean losses, summed "
         "without their weights"),
        (weighted_report("averaged"), "the loss you returned is right, but the gradients "
         "weight the 4 micro-batches equally (backward of their plain mean), wrong when their "
         "sizes differ: run backward on the weighted losses"),
        (weighted_report("summed", zero_first=True), "the loss you returned is right, but the "
         "gradients are about 4 times too large: backward ran on the micro-batches' mean "
         "losses, summed without their weights. Run backward on the weighted losses, the ones "
         "whose sum you return; and the gradients the stages had before the step are gone"),
    ],
    ids=["summed", "averaged", "summed_after_zero_grad"],
)  # fmt: skip
def test_a_right_loss_with_a_backward_of_unweighted_losses_is_named(answer, hint):
    result = fails("09.pipeline", answer, hint)
    assert result.hint.startswith("for a batch of 10 rows in 4 micro-batches, "), result.hint


def raises_on_a_real_gpu(message):
    """What torch raises on two real GPUs when a tensor is left on the wrong device (this
    machine has none, so the step raises it itself, after its forwards)."""

    def step(stage1, stage2, x, y, loss_fn, m):
        forwards(stage1, stage2, x, y, loss_fn, m)
        raise RuntimeError(message)

    return step


SAME_DEVICE = (
    "Expected all tensors to be on the same device, but found at least two devices, cuda:1 and "
    "cpu!\n(when checking argument for argument target in method wrapper_CUDA_nll_loss_forward)"
)
DEVICE_TYPE = "Expected object of device type cuda but got device type cpu for argument #2 'target'"


@pytest.mark.parametrize("message", [SAME_DEVICE, DEVICE_TYPE], ids=["same_device", "device_type"])
def test_a_device_error_of_real_gpus_is_told_as_mixed_devices(message):
    first_line = message.splitlines()[0]
    hint = fails("09.pipeline", raises_on_a_real_gpu(message), "your step mixed devices (").hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, "), hint
    assert f"your step mixed devices ({first_line[:60]}" in hint, hint
    assert "in your function step, line " in hint, hint  # the learner's line that raised
    assert "met one on" in hint and "wrapper_CUDA" not in hint, hint
    if "cuda:1 and cpu" in first_line:  # the devices named by what they are to this step
        assert "a tensor on stage 2's device (cuda:1) met one on the CPU" in hint, hint


def test_an_error_that_is_not_about_devices_is_the_answers_own():
    result = graded(
        "09.pipeline", raises_on_a_real_gpu("mat1 and mat2 shapes cannot be multiplied")
    )
    assert result.status != "passed"
    assert "mixed devices" not in str(result)


def pipeline_float64_loss(stage1, stage2, x, y, loss_fn, m):
    """The loss returned in float64 ("for precision"), left on the device."""
    loss = sum(forwards(stage1, stage2, x, y, loss_fn, m))
    loss.backward()
    return loss.detach().double()


def test_a_loss_returned_in_float64_passes():
    result = graded("09.pipeline", pipeline_float64_loss)
    assert result.ok, str(result)


def test_a_list_of_losses_returned_is_named_by_its_type():
    def returns_the_losses(stage1, stage2, x, y, loss_fn, m):
        losses = forwards(stage1, stage2, x, y, loss_fn, m)
        sum(losses).backward()
        return losses

    fails("09.pipeline", returns_the_losses, "pipeline_step returned list: return the loss")


def test_the_host_reads_are_named_by_kind():
    hint = fails("09.pipeline", two_host_reads, "read device values on the host 2 times").hint
    assert "2 times (__float__, item()): each read waits" in hint, hint


def test_a_single_micro_batch_shortcut_is_named_with_its_case():
    def shortcut_for_one(stage1, stage2, x, y, loss_fn, m):
        if m == 1:  # "nothing to pipeline": the whole batch, but no backward
            d1, d2 = devices(stage1, stage2)
            return loss_fn(stage2(stage1(x.to(d1)).to(d2)), y.to(d2)).detach()
        return pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)

    hint = fails("09.pipeline", shortcut_for_one, "the ones the stages had before the step").hint
    assert hint.startswith("for a batch of 8 rows in 1 micro-batch, "), hint


def test_a_backward_run_twice_is_not_blamed_on_one_stage():
    def backward_twice(stage1, stage2, x, y, loss_fn, m):
        losses = forwards(stage1, stage2, x, y, loss_fn, m)
        for loss in losses:
            loss.backward(retain_graph=True)  # each micro-batch's...
        total = sum(losses)
        total.backward()  # ...and the sum's as well: every gradient twice
        return total.detach()

    hint = fails("09.pipeline", backward_twice, "the gradients differ from the unsplit").hint
    assert hint.endswith("run every micro-batch through both stages once, and backward its "
                         "weighted loss"), hint  # fmt: skip
    assert "stage 1's are not" not in hint


@pytest.mark.parametrize("retain", [True, False])
def test_a_returned_loss_whose_graph_still_holds_its_activations_is_named(retain):
    def kept(stage1, stage2, x, y, loss_fn, m):
        loss = sum(forwards(stage1, stage2, x, y, loss_fn, m))
        if retain:
            loss.backward(retain_graph=True)
        else:  # the same gradients, from a second graph: the returned loss's never ran backward
            sum(forwards(stage1, stage2, x, y, loss_fn, m)).backward()
        return loss

    hint = fails("09.pipeline", kept).hint
    assert hint.endswith(
        "the loss you returned still holds activations its graph saved for backward: "
        "backward(retain_graph=True), or a loss no backward ran through, keeps every "
        "micro-batch's activations alive for as long as the caller holds the loss (a list of "
        "losses kept for logging holds them all). Run backward without retain_graph and return "
        "the loss detached (loss.detach()) or as a float"
    ), hint


def test_a_step_that_changes_the_stages_mode_or_runs_them_on_a_thread_is_named():
    def in_eval_mode(stage1, stage2, x, y, loss_fn, m):
        stage1.eval(), stage2.eval()
        return pipeline_gpipe(stage1, stage2, x, y, loss_fn, m)

    hint = fails("09.pipeline", in_eval_mode).hint
    assert hint.endswith(
        "your step changed the stages' mode (stage.eval() or .train()): the caller's modules "
        "came back in another mode than they went in, which turns dropout off (or on) for "
        "everything after. A training step trains in the mode it is given"
    ), hint

    def on_a_thread(stage1, stage2, x, y, loss_fn, m):
        out = []
        thread = threading.Thread(
            target=lambda: out.append(pipeline_gpipe(stage1, stage2, x, y, loss_fn, m))
        )
        thread.start()
        thread.join()
        return out[0]

    if torch.cuda.device_count() >= 2:  # real GPUs: autograd's own threads run backward
        return
    hint = fails("09.pipeline", on_a_thread).hint
    assert hint.endswith(
        "your step ran a stage's forward or backward on a thread of its own: it may still be "
        "writing the gradients when the step returns and the caller steps the optimizer. Run "
        "the micro-batches on the calling thread; the devices, not threads, run the stages "
        "side by side"
    ), hint


def test_a_pipeline_that_passes_is_told_each_rule_it_passed():
    # the words a learner reads after a pass, as the solution notebook stores them
    assert assert_passes("09.pipeline", pipeline_gpipe).passed == [
        "the loss equals the unsplit model's (n rows in M micro-batches: 10 in 4, 3 in 4, 8 in 1, "
        "7 in 3, 6 in 4, 5 in 3, the last in float64; loss_fn: cross_entropy, also with label "
        "smoothing and with probabilities as targets, multi_margin_loss, nll_loss)",
        "both stages' gradients equal the unsplit model's (each micro-batch weighted), added to "
        "the gradients they had before the step",
        "min(M, n) non-empty micro-batches, each through stage 1, then stage 2, once",
        "stage 2 started micro-batch 0 before stage 1 had run the last one; every forward before "
        "any backward (GPipe's schedule)",
        "activations and targets moved to stage 2's device (also with the stages' devices "
        "swapped, and with stage 2 on the CPU, each copy there used once it has landed), "
        "parameters left where they were, at most one host read per step, none before the last "
        "forward",
    ]
    hint = assert_fails("09.pipeline", 3).hint  # not a function
    assert hint == "pass the function itself, pipeline_step, not an object of type int", hint


def test_devices_kept_from_the_first_layout_are_named_in_a_later_one(monkeypatch):
    # On one GPU the runs on pretend cuda:0 and cuda:1 come first, then stage 1 on the CPU
    # and stage 2 on cuda:0 (the H200 of 2026-12-04 caught devices kept there): here a
    # second pretend layout, the stages' devices swapped, stands in for it.
    import d2lgpu.checks.ch09_model_parallel as pipeline

    two = (torch.device("cuda", 0), torch.device("cuda", 1))
    monkeypatch.setattr(pipeline, "layouts", lambda: [(*two, True), (*two[::-1], True)])
    kept: list = []

    def devices_kept(stage1, stage2, x, y, loss_fn, m):
        kept[:] = kept or devices(stage1, stage2)
        return gpipe_on(kept, stage1, stage2, x, y, loss_fn, m)

    hint = fails("09.pipeline", devices_kept).hint
    assert "(stage 1 on cuda:1, stage 2 on cuda:0)" in hint, hint
    assert hint.endswith(
        ". The runs with stage 1 on cuda:0 and stage 2 on cuda:1 passed: devices read once and "
        "kept (a global, a cache keyed by the stage) are theirs. Read each stage's device in "
        "every call (next(stage.parameters()).device)"
    ), hint
    assert_passes("09.pipeline", pipeline_gpipe)  # read in every call: right in both layouts


def test_devices_or_micro_batches_kept_from_the_first_call_are_named_on_the_swapped_run():
    kept: list = []

    def devices_kept(stage1, stage2, x, y, loss_fn, m):
        if not kept:  # found once, at the first call
            kept.extend(devices(stage1, stage2))
        return gpipe_on(kept, stage1, stage2, x, y, loss_fn, m)

    hint = fails("09.pipeline", devices_kept).hint
    if torch.cuda.device_count() == 1:  # the real layout after the pretend one tells first
        assert hint.endswith(
            ". The runs with stage 1 on cuda:0 and stage 2 on cuda:1 passed: devices read once "
            "and kept (a global, a cache keyed by the stage) are theirs. Read each stage's "
            "device in every call (next(stage.parameters()).device)"
        ), hint
    else:
        assert hint.endswith(
            ". This run swaps the stages' devices, which every earlier one passed: read each "
            "stage's device in every call (next(stage.parameters()).device), not once, in a "
            "first call whose devices are kept (a global, or a cache keyed by the stage: these "
            "are the first run's two stages, moved)"
        ), hint
    cache: dict = {}

    def split_by_shape(stage1, stage2, x, y, loss_fn, m):
        key = (tuple(x.shape), m)  # the batch kept as arrays, which no tensor watch sees
        cache.setdefault(key, (x.numpy().copy(), y.numpy().copy()))
        x, y = (torch.from_numpy(a) for a in cache[key])
        return gpipe_on(devices(stage1, stage2), stage1, stage2, x, y, loss_fn, m)

    hint = fails("09.pipeline", split_by_shape).hint
    assert hint.endswith(
        ". This run gives new data in the shape of the first run, which passed: micro-batches "
        "or results kept from an earlier call (a cache keyed by shape, a global, "
        "functools.cache) are that call's. Split this call's x and y"
    ), hint


def _gpipe_moving(move):
    """GPipe's step, each micro-batch's activations sent to stage 2 by ``move(h, device)``."""

    def step(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        losses = []
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
            out = stage2(move(stage1(xb.to(d1)), d2))
            losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
        loss = torch.stack(losses).sum()
        loss.backward()
        return loss.detach()

    return step


def test_a_copy_to_a_cpu_stage_used_before_it_lands_is_named_and_a_cast_in_float64():
    # round 62: the last run puts stage 2 on the CPU, the notebook's layout on one GPU; the
    # last of the cases has float64 stages
    raced = _gpipe_moving(lambda h, d: h.to(d, non_blocking=True))
    assert assert_fails("09.pipeline", raced).hint == (
        "for a batch of 7 rows in 3 micro-batches (stage 1 on cuda:0, stage 2 on cpu), linear() "
        "on the CPU used a copy that .to('cpu', non_blocking=True) made before anything waited "
        "for it: on a GPU that copy runs behind the host's back, and stage 2 can compute on the "
        "buffer before the activations land (zeros, or what it held before). Copy to the CPU "
        "without non_blocking (a copy to a GPU may keep it: it is queued behind the work it "
        "needs)"
    )
    waited = _gpipe_moving(lambda h, d: h.to(d))  # blocking: passes in every layout
    assert_passes("09.pipeline", waited)
    cast = _gpipe_moving(lambda h, d: h.to(d, torch.float32))
    hint = assert_fails("09.pipeline", cast).hint
    assert hint.startswith(
        "for a batch of 5 rows in 3 micro-batches, stages and batch in float64, your step raised "
        "RuntimeError (mat1 and mat2 must have the same dtype"
    ) and hint.endswith("(dtype=loss.dtype)"), hint


def test_the_first_race_and_a_refused_cast_are_named_in_their_own_words():
    from d2lgpu.checks._ch09_pipeline_rules import cast_refused, check_raced
    from d2lgpu.checks._util import CheckFailed

    check_raced([], "a batch")  # none: nothing to say
    with pytest.raises(CheckFailed) as failed:
        check_raced(["linear()", "relu()"], "a batch")
    assert failed.value.hint.startswith("for a batch, linear() on the CPU used a copy")
    said = cast_refused(RuntimeError("d" * 150 + "\nsecond line"), "a batch").hint
    assert f"raised RuntimeError ({'d' * 100}):" in said and "second" not in said, said
