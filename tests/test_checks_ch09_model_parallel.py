"""Chapter 9's `09.pipeline` checker, more cases: the ones `make mutation` showed
no test pinned down (docs/mutation.md)."""

import math

import pytest
import torch
from grading_helpers import assert_fails, assert_passes, rule_fails
from torch import nn

from d2lgpu.checks import ch09_model_parallel as mp
from d2lgpu.checks._util import one_cpu_thread
from d2lgpu.pipeline import micro_batches


def devices(stage1, stage2):
    return next(stage1.parameters()).device, next(stage2.parameters()).device


def losses_of(stage1, stage2, x, y, loss_fn, m):
    """Each micro-batch's weighted loss, every forward first (GPipe)."""
    d1, d2 = devices(stage1, stage2)
    return [
        loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    ]


def gpipe(stage1, stage2, x, y, loss_fn, m):
    loss = sum(losses_of(stage1, stage2, x, y, loss_fn, m))
    loss.backward()
    return loss.detach()


# The checker's own pieces, where a learner relies on what they do.


@one_cpu_thread  # as the checker runs: a thread pool in pytest's process hangs mutmut's forks
def test_the_reference_run_leaves_the_learners_stages_as_they_were():
    log: list = []
    stage1, stage2 = mp._model(0, log)
    x, y = torch.randn(5, mp.WIDTH), torch.randint(0, 3, (5,))
    params = [*stage1.parameters(), *stage2.parameters()]
    for p in params:
        p.grad = torch.ones_like(p)
    values = [p.detach().clone() for p in params]
    ref = mp._reference(stage1, stage2, x, y, nn.functional.cross_entropy, 2)
    assert ref["grads"] and ref["cross"] is None  # cross_entropy is this loss_fn itself
    assert all(torch.equal(p.grad, torch.ones_like(p)) for p in params)  # no gradient added
    assert all(torch.equal(p.detach(), v) for p, v in zip(params, values, strict=True))
    assert log == []  # the reference's calls are not the learner's


def test_a_wrong_answer_gets_the_same_hint_every_time():
    # the checker draws its data from seeded generators: rerunning a cell repeats its hint,
    # numbers included
    def last_loss_only(stage1, stage2, x, y, loss_fn, m):
        losses = losses_of(stage1, stage2, x, y, loss_fn, m)
        sum(losses).backward()
        return losses[-1].detach() * len(x)  # "the loss": the last micro-batch's, unweighted

    first = assert_fails("09.pipeline", last_loss_only, "the unsplit model's").hint
    assert first.startswith(
        "for a batch of 10 rows in 4 micro-batches, the loss it returned is "
    ), first
    assert assert_fails("09.pipeline", last_loss_only).hint == first


# Gradients: stage 1 left without any after the step.


def detached_and_zeroed(stage1, stage2, x, y, loss_fn, m):
    """zero_grad() on both stages (set to None), then activations detached at the cut: stage 1
    gets no gradient at all, stage 2 only this step's."""
    stage1.zero_grad(), stage2.zero_grad()
    d1, d2 = devices(stage1, stage2)
    losses = [
        loss_fn(stage2(stage1(xb.to(d1)).detach().to(d2)), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    ]
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def test_a_cut_graph_and_zeroed_gradients_are_both_named():
    assert_fails(
        "09.pipeline", detached_and_zeroed, "for a batch of 10 rows in 4 micro-batches, ",
        "stage 2's are right, stage 1's are not (or missing)", ".detach() (or .data) cuts",
        "; and the gradients the stages had before the step are gone", "zero_grad()",
    )  # fmt: skip


def test_a_cut_graph_alone_is_named_without_the_zeroing():
    def detached(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        loss = sum(
            loss_fn(stage2(stage1(xb.to(d1)).detach().to(d2)), yb.to(d2)) * (len(xb) / len(x))
            for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
        )
        loss.backward()
        return loss.detach()

    hint = assert_fails("09.pipeline", detached, "stage 2's are right, stage 1's are not").hint
    assert "are gone" not in hint, hint


# Devices: which mistake is named when a step makes two.


def replaces_a_weight_and_leaves_h(stage1, stage2, x, y, loss_fn, m):
    """A new Parameter in stage 2 (say, to "reset" it), and the activations left behind."""
    stage2.layers[0].weight = nn.Parameter(stage2.layers[0].weight.detach().clone())
    d1, d2 = devices(stage1, stage2)
    losses = [
        loss_fn(stage2(stage1(xb.to(d1))), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    ]
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def adds_a_parameter_and_leaves_h(stage1, stage2, x, y, loss_fn, m):
    """A learnable scale registered on stage 1 during the step, activations left behind."""
    stage1.register_parameter("scale", nn.Parameter(torch.ones(())))
    d1, d2 = devices(stage1, stage2)
    losses = [
        loss_fn(stage2(stage1(xb.to(d1)) * stage1.scale), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    ]
    loss = sum(losses)
    loss.backward()
    return loss.detach()


@pytest.mark.parametrize("answer", [replaces_a_weight_and_leaves_h, adds_a_parameter_and_leaves_h])
def test_a_replaced_or_added_parameter_is_named_before_the_mixed_devices(answer):
    hint = assert_fails("09.pipeline", answer, "parameters were replaced or moved").hint
    assert hint.startswith(
        "for a batch of 10 rows in 4 micro-batches, the stages' parameters were replaced or "
        "moved: leave each stage on its device and move the activations between them instead"
    ), hint
    assert "on another device" not in hint, hint


def test_the_mixed_devices_hint_quotes_the_first_mix():
    def total_on_the_cpu(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        total = torch.zeros(1)  # made on the CPU, then added to losses on stage 2's device
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
            total = total + loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * len(xb) / len(x)
        total.sum().backward()
        return total.sum().detach()

    hint = assert_fails("09.pipeline", total_on_the_cpu, "your step mixed devices (").hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, your step mixed"), hint
    if torch.cuda.device_count() >= 2:  # real GPUs: torch's own error, quoted, and the line
        assert "Expected all tensors" in hint and "`total = total + " in hint, hint
    else:  # the pretend GPUs: the first operation that mixed, and where the tensor was made
        assert "(add got a tensor on cuda:1 and torch.zeros(...) without device=)" in hint, hint
    assert "met one on the CPU" in hint and "made without device=" in hint, hint


@pytest.fixture
def real_device_errors(monkeypatch):
    """Stage 2 on the meta device: mixing it with the CPU raises torch's own device error, as
    a real GPU does, so the checker's path for a real GPU runs on a machine without one."""
    monkeypatch.setattr(mp, "layouts", lambda: [(torch.device("cpu"), torch.device("meta"), False)])


def activations_left_behind(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    losses = [
        loss_fn(stage2(stage1(xb.to(d1))), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    ]
    return sum(losses)


def total_made_on_the_cpu(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    total = torch.zeros(1)
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
        total = total + loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * len(xb) / len(x)
    return total


@pytest.mark.parametrize(
    "answer, says",
    [
        (activations_left_behind, "stage 2's input was on the CPU (stage 1's device, where x "
         "and y arrive), not on stage 2's device (meta): stage 1's output (the activations)"),
        (total_made_on_the_cpu, "your step mixed devices ("),
        (replaces_a_weight_and_leaves_h, "the stages' parameters were replaced or moved"),
        (adds_a_parameter_and_leaves_h, "the stages' parameters were replaced or moved"),
    ],
)  # fmt: skip
def test_a_real_devices_error_is_named_like_the_pretend_gpus(real_device_errors, answer, says):
    # On a real GPU a mix raises at once; the hint still names the case, and a replaced
    # parameter still comes first (what a 1-GPU machine showed: the bare device error)
    hint = assert_fails("09.pipeline", answer, says).hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches (stage 1 on cpu, "), hint
    if "mixed devices" in says:  # torch's error, the learner's line, the devices' roles
        assert "in your function total_made_on_the_cpu, line " in hint, hint
        assert "`total = total + loss_fn(" in hint, hint
        assert "a tensor on stage 2's device (meta) met one on the CPU" in hint, hint


def test_a_long_device_error_is_quoted_to_its_first_120_characters():
    line = "Expected all tensors to be on the same device, " + "x" * 200

    def raises(stage1, stage2, x, y, loss_fn, m):
        raise RuntimeError(line + "\nsecond line")

    hint = assert_fails("09.pipeline", raises, "your step mixed devices (").hint
    assert hint.startswith(
        f"for a batch of 10 rows in 4 micro-batches, your step mixed devices ({line[:120]}) "
        "in your function raises, line "
    ), hint
    assert "\n" not in hint, hint  # the error's first line only


# The schedule and the host reads, at the edges of their rules.


def backward_from_the_third_forward(stage1, stage2, x, y, loss_fn, m):
    """Each micro-batch's backward two forwards later (for 4: F0 F1 F2 B0 F3 B1 B2 B3): the
    first backward runs between the last two forwards."""
    losses = []
    d1, d2 = devices(stage1, stage2)
    xs, ys = micro_batches(x, m), micro_batches(y, m)
    for i, (xb, yb) in enumerate(zip(xs, ys, strict=True)):
        losses.append(loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x)))
        if i >= 2:
            losses[i - 2].backward()
    for loss in losses[max(len(losses) - 2, 0) :]:
        loss.backward()
    return sum(loss.detach() for loss in losses)


def test_a_backward_between_the_last_two_forwards_is_named():
    assert_fails(
        "09.pipeline", backward_from_the_third_forward, "a batch of 10 rows in 4 micro-batches",
        "backward ran before the last micro-batch's forward",
    )  # fmt: skip


def item_of_the_third_loss(stage1, stage2, x, y, loss_fn, m):
    """One host read, of micro-batch 2's loss: after stage 2's second forward, before its last."""
    d1, d2 = devices(stage1, stage2)
    losses = []
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
        losses.append(loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x)))
        if len(losses) == 3 and math.isnan(losses[2].item()):  # a NaN check, once
            raise FloatingPointError("the loss is NaN")
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def test_one_read_in_the_middle_of_the_forwards_is_named():
    hint = assert_fails(
        "09.pipeline", item_of_the_third_loss, "a batch of 10 rows in 4 micro-batches",
        "read a device value on the host (item()) before the last micro-batch's forward",
    ).hint  # fmt: skip
    assert "times" not in hint, hint


def test_one_read_after_the_last_forward_passes():
    def reads_once_at_the_end(stage1, stage2, x, y, loss_fn, m):
        return float(gpipe(stage1, stage2, x, y, loss_fn, m))

    assert_passes("09.pipeline", reads_once_at_the_end)


# One stage's gradients zeroed: the clean start would hide it, the stages' own start shows it.


def zeroes_one_stage(which):
    def step(stage1, stage2, x, y, loss_fn, m):
        (stage1, stage2)[which].zero_grad()  # "reset the stage before its micro-batches"
        return gpipe(stage1, stage2, x, y, loss_fn, m)

    return step


@pytest.mark.parametrize("which", [0, 1], ids=["stage_1", "stage_2"])
def test_a_step_that_zeroes_one_stage_is_named_with_that_stage(which):
    hint = assert_fails(
        "09.pipeline", zeroes_one_stage(which), "for a batch of 10 rows in 4 micro-batches, ",
        f"stage {which + 1}'s are right, but the gradients the stages had before the step are gone",
    ).hint  # fmt: skip
    assert f"stage {2 - which}'s" not in hint and "cut" not in hint, hint


def test_the_check_leaves_the_learners_random_numbers_alone():
    torch.manual_seed(123)
    expected = torch.rand(4)
    torch.manual_seed(123)
    assert_passes("09.pipeline", gpipe)
    assert torch.equal(torch.rand(4), expected)


# Stage 1 is never on the CPU where x arrives (two GPUs, real or pretend): a micro-batch not
# moved to it, or moved to stage 2's, is named with where it was and where it belongs.


def step_moving(x_to=None, h_to=None, y_to=None, total_on=None):
    """A GPipe step; ``x_to(d1, d2)`` picks each micro-batch's device (None: left as it is),
    and so for the activations and the targets; ``total_on`` makes the running total there."""

    def step(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        total = torch.zeros((), device=total_on(d1, d2)) if total_on else 0
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
            xb = xb.to(x_to(d1, d2)) if x_to else xb
            h = stage1(xb)
            h = h.to(h_to(d1, d2)) if h_to else h
            yb = yb.to(y_to(d1, d2)) if y_to else yb
            total = total + loss_fn(stage2(h), yb) * (len(xb) / len(x))
        total.backward()
        return total.detach()

    return step


def first(d1, d2):
    return d1


def second(d1, d2):
    return d2


@pytest.mark.parametrize(
    "answer, says",
    [
        (step_moving(h_to=second, y_to=second), "stage 1's input was on the CPU (where x and y "
         "arrive), not on stage 1's device (cuda:0): each micro-batch goes to stage 1's device"),
        (step_moving(x_to=second, h_to=second, y_to=second), "stage 1's input was on stage 2's "
         "device (cuda:1), not on stage 1's device (cuda:0)"),
        (step_moving(x_to=first, y_to=second), "stage 2's input was on stage 1's device "
         "(cuda:0), not on stage 2's device (cuda:1): stage 1's output (the activations) goes"),
        (step_moving(x_to=first, h_to=second, y_to=first), "loss_fn's targets were on stage 1's "
         "device (cuda:0), not on stage 2's device (cuda:1): each micro-batch's targets go to "
         "stage 2's device, where loss_fn runs"),
        (step_moving(x_to=first, h_to=second, y_to=second, total_on=first), "your step mixed "
         "devices (add got tensors on cuda:0 and on cuda:1): a tensor on stage 1's device "
         "(cuda:0) met one on stage 2's device (cuda:1)"),
    ],
    ids=["x_left_on_the_cpu", "x_to_stage_2", "h_left_on_stage_1", "y_to_stage_1", "total_on_1"],
)  # fmt: skip
def test_each_misplaced_tensor_is_named_with_where_it_was_and_where_it_belongs(answer, says):
    if torch.cuda.device_count() == 1:
        pytest.skip("one GPU: the second run puts stage 1 on the CPU, other devices are named")
    hint = assert_fails("09.pipeline", answer, says).hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, "), hint
    assert "Move each micro-batch to stage 1's device, its activations" not in hint, hint


def grads_by_autograd_grad(stage1, stage2, x, y, loss_fn, m):
    """torch.autograd.grad over both stages' parameters (on two devices), added by hand."""
    d1, d2 = devices(stage1, stage2)
    loss = sum(
        loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    )
    params = [*stage1.parameters(), *stage2.parameters()]
    for p, g in zip(params, torch.autograd.grad(loss, params), strict=True):
        p.grad.add_(g)
    return loss.detach()


def moved_like_another_tensor(stage1, stage2, x, y, loss_fn, m):
    """x.to(tensor): each micro-batch to where stage 1's weight is, the activations to where
    stage 2's is (same dtype, so only the device changes)."""
    w1, w2 = next(stage1.parameters()), next(stage2.parameters())
    loss = sum(
        loss_fn(stage2(stage1(xb.to(w1)).to(w2)), yb.to(w2.device)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    )
    loss.backward()
    return loss.detach()


@pytest.mark.parametrize("answer", [grads_by_autograd_grad, moved_like_another_tensor])
def test_autograd_grad_over_two_devices_and_to_another_tensor_are_not_mixes(answer):
    assert_passes("09.pipeline", answer)


def test_activations_sent_through_the_cpu_are_named_as_reads():
    def through_the_cpu(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        loss = sum(
            loss_fn(stage2(stage1(xb.to(d1)).cpu().to(d2)), yb.to(d2)) * (len(xb) / len(x))
            for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
        )
        loss.backward()
        return loss.detach()

    hint = assert_fails(
        "09.pipeline", through_the_cpu, "read device values on the host 4 times (.cpu())",
        "a copy to the CPU is a read too: move the activations from stage 1's device straight",
    ).hint  # fmt: skip
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, "), hint


def test_gradients_that_carry_a_graph_are_named():
    # backward(create_graph=True): the right values, but every gradient records the backward
    # pass too (a second derivative's cost, and memory held as long as the gradients)
    def with_graph(stage1, stage2, x, y, loss_fn, m):
        total = sum(losses_of(stage1, stage2, x, y, loss_fn, m))
        total.backward(create_graph=True)
        return total.detach()

    assert_fails(
        "09.pipeline", with_graph, "the gradients carry a graph of their own",
        "create_graph=True", "Call backward() without create_graph",
    )  # fmt: skip


# Round 21: what the checker cannot see in the values on a CPU (_ch09_stages.moves), and a
# loss_fn given its arguments the wrong way round.


def whole_targets_each_micro(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    losses, start = [], 0
    for xb in micro_batches(x, m):
        end = start + len(xb)
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, y.to(d2)[start:end]) * (len(xb) / len(x)))
        start = end
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def whole_batch_each_micro(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    bounds = [
        (int(r[0]), int(r[-1]) + 1) for r in torch.arange(len(x)).tensor_split(min(m, len(x)))
    ]
    losses = [
        loss_fn(stage2(stage1(x.to(d1)[a:b]).to(d2)), y[a:b].to(d2)) * ((b - a) / len(x))
        for a, b in bounds
    ]
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def under_autocast(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    with torch.autocast(d2.type, dtype=torch.bfloat16):
        losses = losses_of(stage1, stage2, x, y, loss_fn, m)
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def swapped_loss_args(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    losses = [
        loss_fn(yb.to(d2), stage2(stage1(xb.to(d1)).to(d2))) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    ]
    loss = sum(losses)
    loss.backward()
    return loss.detach()


def targets_moved_once(stage1, stage2, x, y, loss_fn, m):
    d1, d2 = devices(stage1, stage2)
    x1, y2 = x.to(d1), y.to(d2)  # each once, before the loop: as many rows as one by one
    losses = [
        loss_fn(stage2(stage1(xb).to(d2)), yb) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x1, m), micro_batches(y2, m), strict=True)
    ]
    loss = sum(losses)
    loss.backward()
    return loss.detach()


@pytest.mark.filterwarnings("ignore:.*Disabling autocast:UserWarning")
@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (whole_targets_each_micro, ["copied 4 times as much of the targets y to a device",
                                    "y.to(device) of all of y inside the loop",
                                    "to stage 2's device, or all of y once, before the loop"]),
        (whole_batch_each_micro, ["copied 4 times as much of the batch x",
                                  "to stage 1's device"]),
        (under_autocast, ["ran under torch.autocast (bfloat16)", "no longer the float32 model's"]),
        (swapped_loss_args, ["loss_fn got the targets first and stage 2's output second",
                             "call loss_fn(out, target)"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)  # fmt: skip
def test_copies_autocast_and_swapped_loss_arguments_are_named(answer, says):
    assert_fails("09.pipeline", answer, "for a batch of 10 rows in 4 micro-batches", *says)


def test_the_batch_and_targets_moved_once_before_the_loop_pass():
    assert_passes("09.pipeline", targets_moved_once)


def test_the_stages_devices_errors_and_copies_word_for_word(monkeypatch):
    from d2lgpu.checks import _ch09_stages as st

    c0, c1, cpu, meta = (torch.device(d) for d in ("cuda:0", "cuda:1", "cpu", "meta"))
    for gpus, want in (
        (0, [(c0, c1, True)]),
        (1, [(c0, c1, True), (cpu, c0, False)]),
        (2, [(c0, c1, False)]),
    ):
        monkeypatch.setattr(torch.cuda, "device_count", lambda gpus=gpus: gpus)
        assert [(str(a), str(b), p) for a, b, p in st.layouts()] == [
            (str(a), str(b), p) for a, b, p in want
        ]
    assert (
        str(st.Misplaced("stage 1's input", cpu, c0)) == "stage 1's input on cpu, expected cuda:0"
    )
    swapped = st.SwappedArgs()
    assert (str(swapped), swapped.what) == ("loss_fn got the targets first", "loss_fn's arguments")
    assert st.misplaced_hint(swapped, c0, c1) == (
        "loss_fn got the targets first and stage 2's output second: its arguments are in the "
        "wrong order. torch's losses take (input, target), the model's output first: call "
        "loss_fn(out, target)"
    )
    t = torch.ones(2, device="meta")
    assert [st._device(a) for a in (1, "meta", meta, t, True, None, 2.0)] == [
        c1,
        meta,
        meta,
        meta,
        None,
        None,
        None,
    ]
    st.check_autocast([], "w")
    assert rule_fails(st.check_autocast, ["bfloat16", "float16"], "w") == (
        "for w, your step ran under torch.autocast (bfloat16): the stages' products then run in "
        "lower precision, and the loss and the gradients are no longer the float32 model's, "
        "which the step must give. Run the stages in their own precision (autocast is chapter "
        "4's, for a whole training loop)"
    )
    tail = (
        "A tensor stays on its device until moved: make it on, or move it (to()) to, the device "
        "of the tensors it meets"
    )
    made = "A tensor made without device= is on the CPU. "
    for mix, d1, d2, says in (
        ("add got a tensor on cuda:1 and torch.zeros(...) without device=", c0, c1,
         "a tensor on stage 2's device (cuda:1) met one on the CPU (where x and y arrive). " + made),
        ("mul got a device tensor and a CPU one", c0, c1,
         "a tensor on stage 1's device (cuda:0) met one on the CPU (where x and y arrive). " + made),
        ("found at least two devices, meta and cpu!", cpu, meta,
         "a tensor on stage 2's device (meta) met one on the CPU (stage 1's device, where x and y "
         "arrive). " + made),
        ("index is on cuda:2, different from other tensors on cuda:0", c0, c1,
         "a tensor on cuda:2, neither stage's device met one on stage 1's device (cuda:0). "),
        ("something odd", c0, c1, "a tensor on another device met one on another device. "),
        ("on device type cpu", c0, c1,
         "a tensor on the CPU (where x and y arrive) met one on another device. " + made),
    ):  # fmt: skip
        assert st.mix_hint(mix, d1, d2) == f"your step mixed devices ({mix}): {says}{tail}"


def test_copies_of_the_batch_to_a_device_are_counted_by_element_and_by_name():
    from d2lgpu.checks._ch09_stages import _Moves

    x, y, other = torch.ones(4, 3), torch.ones(4), torch.ones(5)
    on_meta = torch.ones(1, device="meta")
    with _Moves({"x": x, "y": y}) as watch:
        x.to("meta")  # 12
        x[:2].to(torch.device("meta"), non_blocking=True)  # a view: 6
        x.to(on_meta)  # a tensor names the device: 12
        x.to("cpu")  # the CPU: not counted
        x.to(torch.float64)  # a dtype only: not counted
        y.to(device="meta")  # 4
        torch.as_tensor(y, device="meta")  # 4
        torch.asarray(y, device="meta")  # 4
        with pytest.warns(UserWarning, match="copy construct"):  # torch's advice: clone()
            torch.tensor(y, device="meta")  # 4
        torch.tensor([1.0, 2.0], device="meta")  # a list: nothing named is copied
        torch.as_tensor(y)  # no device: not counted
        other.to("meta")  # not a named tensor
        for copy in (x.cuda, lambda: y.to(1)):  # counted before the copy, which may raise here
            try:
                copy()
            except (AssertionError, RuntimeError):  # a torch without CUDA, or one GPU
                pass
    assert watch.moved == {"x": 42, "y": 20}


# The gradients the caller gave: scaled after backward, or zeroed and added back (shared
# with 09.one_f_one_b: _ch09_given_grads).


def sums_then_grads_divided(stage1, stage2, x, y, loss_fn, m):
    """Each micro-batch's sum over its rows, one backward, then every .grad divided by len(x):
    right from zero gradients, but the caller's are divided too."""
    d1, d2 = devices(stage1, stage2)
    total = sum(
        loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * len(xb)
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
    )
    total.backward()
    with torch.no_grad():
        for p in [*stage1.parameters(), *stage2.parameters()]:
            p.grad.div_(len(x))
    return total.detach() / len(x)


def test_gradients_the_stages_had_scaled_with_the_steps_are_named():
    hint = assert_fails("09.pipeline", sums_then_grads_divided).hint
    assert hint == (
        "for a batch of 10 rows in 4 micro-batches, this step's gradients are right, but the "
        "gradients already in .grad before the step were divided by 10 too: each .grad is 0.1 "
        "times the caller's plus this step's. Scaling .grad after backward (p.grad /= len(x), "
        "or a multiply) scales the gradients of earlier batches with this one's. Weight the "
        "loss instead: backward each micro-batch's loss times its share of the rows "
        "(len(x_i) / len(x)), and leave .grad alone after it"
    ), hint


@pytest.mark.parametrize(
    ("set_to_none", "held"),
    [(True, "None (zero_grad() sets them so)"),
     (False, "zeros (zero_grad(set_to_none=False), or p.grad.zero_())")],
)  # fmt: skip
def test_gradients_zeroed_then_added_back_are_named_at_the_first_forward(set_to_none, held):
    def stashed(stage1, stage2, x, y, loss_fn, m):
        params = [*stage1.parameters(), *stage2.parameters()]
        kept = [p.grad.clone() for p in params]
        stage1.zero_grad(set_to_none), stage2.zero_grad(set_to_none)
        loss = gpipe(stage1, stage2, x, y, loss_fn, m)
        with torch.no_grad():
            for p, g in zip(params, kept, strict=True):
                p.grad = g if p.grad is None else p.grad + g
        return loss

    hint = assert_fails("09.pipeline", stashed).hint
    assert hint.startswith(
        "for a batch of 10 rows in 4 micro-batches, when stage 1's first forward ran, its "
        f"parameters' .grad were {held}, not the gradients the caller gave the step (the "
        "checker gave them some): your step zeroed the gradients, which the caller does, not "
        "the step. Putting a copy aside and adding it back at the end gives the right sums"
    ), hint


def test_micro_batches_of_x_that_require_grad_are_named_as_work_nobody_reads():
    def inputs_require_grad(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        total = sum(
            loss_fn(stage2(stage1(xb.to(d1).requires_grad_()).to(d2)), yb.to(d2))
            * (len(xb) / len(x))
            for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True)
        )
        total.backward()
        return total.detach()

    hint = assert_fails("09.pipeline", inputs_require_grad).hint
    assert hint == (
        "for a batch of 10 rows in 4 micro-batches, stage 1's input, a micro-batch of x, "
        "required grad (requires_grad_()): backward then also computes the gradient of every "
        "micro-batch of x, one more product per micro-batch in stage 1's first layer, kept in "
        "its .grad, that nothing reads. Send the micro-batches to stage 1 as they are: to() "
        "between the devices is followed by autograd without it"
    ), hint


def test_saved_tensors_copied_to_the_host_are_named_as_host_waits():
    def saved_on_cpu(stage1, stage2, x, y, loss_fn, m):
        with torch.autograd.graph.save_on_cpu():
            return gpipe(stage1, stage2, x, y, loss_fn, m)

    hint = assert_fails("09.pipeline", saved_on_cpu).hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, your step copied "), hint
    assert hint.endswith(
        " tensors saved for backward from the device to the host "
        "(torch.autograd.graph.save_on_cpu(), or saved_tensors_hooks that call .cpu()): each "
        "copy without pinned memory makes the host wait for the device, in every operation of "
        "the forward, so stage 1 cannot run ahead while stage 2 works. Leave the saved "
        "activations on their devices"
    ), hint


def test_a_gradient_sent_back_from_stage_2s_device_is_a_device_mix():
    def cut_by_hand(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        sent, received, losses = [], [], []
        for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
            h = stage1(xb.to(d1))
            r = h.detach().to(d2).requires_grad_()
            losses.append(loss_fn(stage2(r), yb.to(d2)) * (len(xb) / len(x)))
            sent.append(h), received.append(r)
        total = sum(losses)
        total.backward()
        torch.autograd.backward(sent, [r.grad for r in received])  # still on stage 2's device
        return total.detach()

    hint = assert_fails("09.pipeline", cut_by_hand, "your step mixed devices (").hint
    if torch.cuda.device_count() < 2:  # the pretend GPUs' words; real ones: torch's error
        assert hint.startswith(
            "for a batch of 10 rows in 4 micro-batches, your step mixed devices (backward got "
            "a gradient on cuda:1 for a tensor on cuda:0): a tensor on stage 2's device "
            "(cuda:1) met one on stage 1's device (cuda:0). "
        ), hint


@pytest.mark.parametrize(
    ("calls", "named"),
    [
        ([3, 3, 2, 2, 10], "the whole batch of 10 rows went through the stages"),
        ([3, 3, 2, 2, 3, 3, 2, 2], "every row went through stage 1 twice, a forward run again"),
        ([4, 4, 2], "x.split(4) cuts pieces of 4 rows"),
        ([3, 3, 3, 1, 1], None),  # none of the three: the plain words end the hint
    ],
)
def test_micro_batches_cut_wrong_are_named_by_how(calls, named):
    from d2lgpu.checks._ch09_pipeline_rules import check_schedule

    log = [(stage, rows, "forward") for rows in calls for stage in (1, 2)]
    with pytest.raises(mp.CheckFailed) as failed:
        check_schedule(log, 10, 4, "a batch of 10 rows in 4 micro-batches")
    hint = failed.value.hint
    assert hint.endswith("gives exactly 4)") if named is None else named in hint, hint
    assert failed.value.hint.startswith("for a batch of 10 rows in 4 micro-batches, stage 1 got")


def test_the_schedules_order_is_held_from_the_first_call_to_the_last_backward():
    from d2lgpu.checks._ch09_pipeline_rules import check_schedule

    where = "a batch of 8 rows in 2 micro-batches"
    with pytest.raises(mp.CheckFailed) as failed:  # two micro-batches asked, one call made
        check_schedule([(1, 8, "forward"), (2, 8, "forward")], 8, 2, where)
    assert failed.value.hint.startswith(f"for {where}, the whole batch went through stage 1 in one")
    f1, f2, b2 = (1, 4, "forward"), (2, 4, "forward"), (2, 4, "backward")
    check_schedule([f1, f2, f1, f2], 8, 2, where)  # forwards only: no backward to misplace
    check_schedule([f1, f2, f1, f2, b2], 8, 2, where)
    with pytest.raises(mp.CheckFailed) as failed:  # a backward between the last two forwards
        check_schedule([f1, f2, f1, b2, f2], 8, 2, where)
    assert "backward ran before the last micro-batch's forward" in failed.value.hint


@pytest.mark.parametrize("copy", [".cpu()", ".to('cpu')"])
def test_a_copy_to_the_cpu_among_the_reads_is_named_as_one(copy):
    from d2lgpu.checks._ch09_pipeline_rules import check_reads

    with pytest.raises(mp.CheckFailed) as failed:
        check_reads([copy, ".item()"], "a batch of 8 rows in 2 micro-batches")
    assert failed.value.hint.endswith(
        "; a copy to the CPU is a read too: move the activations from stage 1's device "
        "straight to stage 2's"
    )


def reseeds_for_reproducibility(stage1, stage2, x, y, loss_fn, m):
    torch.manual_seed(0)  # "for reproducibility"
    return gpipe(stage1, stage2, x, y, loss_fn, m)


def leaves_float64_the_default(stage1, stage2, x, y, loss_fn, m):
    loss = gpipe(stage1, stage2, x, y, loss_fn, m)
    torch.set_default_dtype(torch.float64)  # "for a precise total", never set back
    return loss


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (reseeds_for_reproducibility, "your step called torch.manual_seed() and left torch's"),
        (leaves_float64_the_default, "your step leaves a process-wide default of torch changed"),
    ],
)
def test_a_step_that_reseeds_or_leaves_a_default_changed_is_named_as_the_steps(answer, says):
    try:
        hint = assert_fails("09.pipeline", answer).hint
    finally:
        torch.set_default_dtype(torch.float32)
    assert says in hint, hint


def test_what_the_step_held_before_it_ran_and_the_losses_it_returned_are_not_counted_as_kept():
    ones = torch.ones(())  # made before the step, held by its closure: not the step's doing
    returned: list = []  # each returned loss, kept for a plot: the caller has it anyway

    def plots_its_losses(stage1, stage2, x, y, loss_fn, m):
        loss = gpipe(stage1, stage2, x, y, loss_fn, m) * ones
        returned.append(loss)
        return loss

    assert_passes("09.pipeline", plots_its_losses)
    assert len(returned) > 1

    def keeps_a_micro_batchs_loss(stage1, stage2, x, y, loss_fn, m):
        losses = losses_of(stage1, stage2, x, y, loss_fn, m)
        sum(losses).backward()
        returned.append(losses[0])  # not what it returns: kept for nothing, each step
        return sum(losses).detach()

    hint = assert_fails("09.pipeline", keeps_a_micro_batchs_loss, "tensor(s) it made were").hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, after your step returned")


def first_micro_batch_only(mistake):
    """GPipe with ``mistake`` made to micro-batch 0's input alone: what stage 1 sees of each
    later micro-batch must not undo it."""

    def step(stage1, stage2, x, y, loss_fn, m):
        d1, d2 = devices(stage1, stage2)
        pieces = list(zip(micro_batches(x, m), micro_batches(y, m), strict=True))
        total = 0
        for i, (xb, yb) in enumerate(pieces):
            if i == 0 and mistake == "requires_grad":
                xb = xb.clone().requires_grad_()
            if i == 0 and mistake == "reversed":
                xb, yb = xb.flip(0), yb.flip(0)  # the same rows, in another order
            out = stage2(stage1(xb.to(d1)).to(d2))
            total = total + loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total.backward()
        return total.detach()

    return step


@pytest.mark.parametrize(
    ("mistake", "says"),
    [
        ("requires_grad", "stage 1's input, a micro-batch of x, required grad"),
        ("reversed", "the rows were reordered or gathered (torch.randperm, x[perm])"),
    ],
)
def test_a_mistake_in_the_first_micro_batch_alone_is_named(mistake, says):
    hint = assert_fails("09.pipeline", first_micro_batch_only(mistake), says).hint
    assert hint.startswith("for a batch of 10 rows in 4 micro-batches, "), hint  # the first case
