"""The checker of 04.amp: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

from contextlib import nullcontext

import pytest
import torch
import torch.nn.functional as F
from grading_helpers import assert_fails, assert_passes


def make_amp_loop(*, unscale=True, clip_before_unscale=False, update=True, autocast_forward=True,
                  scaler_step=True, return_scaled=False):  # fmt: skip
    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype, enabled=autocast_forward):
                out = net(X)
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(out, y)
            opt.zero_grad()
            if scaler is None:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                opt.step()
            else:
                if return_scaled:
                    loss = scaler.scale(loss)  # the scaled loss is then logged too
                    loss.backward()
                else:
                    scaler.scale(loss).backward()
                if clip_before_unscale:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                if unscale:
                    scaler.unscale_(opt)
                if not clip_before_unscale:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                scaler.step(opt) if scaler_step else opt.step()
                if update:
                    scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    return train_amp


def test_amp_reference_passes():
    assert len(assert_passes("04.amp", make_amp_loop()).passed) == 7


def test_amp_rejects_clipping_before_unscaling():
    assert_fails(
        "04.amp",
        make_amp_loop(clip_before_unscale=True),
        "call scaler.unscale_(opt) before clip_grad_norm_, or the threshold max_norm means nothing",
        "the gradients were clipped while still scaled (by the scaler's factor, here 1024), so "
        "the steps were",
    )
    assert_fails("04.amp", make_amp_loop(unscale=False), "clipped while still scaled")


def test_amp_rejects_a_scaler_that_is_never_updated():
    assert_fails(
        "04.amp", make_amp_loop(update=False), "call scaler.update() after scaler.step(opt)"
    )


def test_amp_rejects_a_forward_outside_autocast():
    assert_fails("04.amp", make_amp_loop(autocast_forward=False), "produced torch.float32 outputs")


def test_amp_rejects_opt_step_instead_of_scaler_step():
    assert_fails("04.amp", make_amp_loop(scaler_step=False), "call scaler.step(opt) instead")


def clips_as(clip):
    """A train_amp that unscales first, then clips with ``clip(parameters, max_norm)``."""

    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            clip(net.parameters(), max_norm)
            (scaler.step(opt), scaler.update()) if scaler else opt.step()
            losses.append(loss.detach())
        return torch.stack(losses)

    return train_amp


def test_amp_names_gradients_clipped_another_way_not_as_clipped_while_scaled():
    def each_parameter(params, max_norm):  # each tensor's norm at most max_norm: together more
        for p in params:
            torch.nn.utils.clip_grad_norm_(p, max_norm)

    def l1_norm(params, max_norm):  # short steps, but not short by the scaler's factor
        torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type=1)

    def half_the_threshold(params, max_norm):
        torch.nn.utils.clip_grad_norm_(params, max_norm / 2)

    wrong = {
        l1_norm: "not clipped to max_norm=0.5",
        half_the_threshold: "between 0.25 and 0.25, not clipped to max_norm=0.5",
    }
    for clip, hint in wrong.items():
        result = assert_hint(
            clips_as(clip),
            "with torch.float16, the gradients' norm at the optimizer's step was between",
            hint,
            "not clipped to max_norm=0.5: keep torch.nn.utils.clip_grad_norm_(net.parameters(), "
            "max_norm) after backward() and scaler.unscale_(opt), and before scaler.step(opt): a "
            "clip after the step changes gradients the step has already used",
        )
        assert "while still scaled" not in result.hint, result.hint
    result = assert_hint(
        clips_as(each_parameter),
        "with torch.float16, each parameter tensor's gradient was clipped on its own: none was "
        "longer than max_norm=0.5, but their total norm was up to 0.769. Clip all the "
        "parameters at once, clip_grad_norm_(net.parameters(), max_norm): one factor for them "
        "all, so that their total norm is max_norm",
    )
    assert "while still scaled" not in result.hint, result.hint
    assert_passes("04.amp", clips_as(torch.nn.utils.clip_grad_norm_))
    # clipped before unscale_: every step max_norm / 1024 long
    assert_fails(
        "04.amp",
        make_amp_loop(clip_before_unscale=True),
        "the gradients were clipped while still scaled (by the scaler's factor, here 1024), so "
        "the steps were 0.00049 long instead of 0.5: call scaler.unscale_(opt) before "
        "clip_grad_norm_, or the threshold max_norm means nothing",
    )


def test_amp_names_a_loss_printed_every_few_steps():
    def prints_every_5_steps(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for i, batch in enumerate(batches):
            loss = amp_loop()(net, [batch], opt, device_type, dtype, scaler, max_norm=max_norm)[0]
            losses.append(loss)
            if i % 5 == 0:  # steps 0, 5, 10 before the last step: 3 waits in the loop
                print(f"step {i}: loss {loss.item():.3f}")
        return torch.stack(losses)

    assert_fails(
        "04.amp",
        prints_every_5_steps,
        "with torch.float16, your loop read tensors on the host 4 times in 16 steps (item; the "
        "first in your function prints_every_5_steps, line ",
    )
    assert_fails(
        "04.amp",
        prints_every_5_steps,
        """`print(f"step {i}: loss {loss.item():.3f}")`): each read (loss.item(), float(loss), """
        "or a call that reads for you) waits for the GPU. Keep the losses on the device "
        "(losses.append(loss.detach())) and return torch.stack(losses)",
    )


def test_amp_reports_another_attribute_error_of_the_bfloat16_run_as_the_answers_own():
    def names_a_layer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        if scaler is None:
            net.fc.weight.zero_()  # a layer the model does not have
        return make_amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm)

    result = assert_fails("04.amp", names_a_layer, "AttributeError", "'fc'")
    assert "the scaler is None" not in result.hint, result.hint


def test_amp_names_an_opt_step_after_the_scalers_step():
    def steps_twice(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            if scaler:
                scaler.step(opt)
                scaler.update()
            opt.step()  # the optimizer's own step too
            losses.append(loss.detach())
        return torch.stack(losses)

    assert_fails("04.amp", steps_twice, "the loop calls opt.step() itself")


def test_the_gradient_norm_of_parameters_without_gradients_is_zero():
    from d2lgpu.checks._ch04_watch import grad_norm

    net = torch.nn.Linear(3, 4)
    assert grad_norm(net.parameters()) == 0.0
    net.weight.grad = torch.full((4, 3), 0.5)  # the bias has none
    assert grad_norm(net.parameters()) == pytest.approx(0.5 * 12**0.5)


def test_the_problem_is_made_on_the_device_it_is_given():
    from d2lgpu.checks._ch04_watch import make_problem

    net, batches = make_problem(torch.device("meta"), steps=2)  # a device without data
    assert {p.device.type for p in net.parameters()} == {"meta"}
    assert [(X.device.type, y.device.type) for X, y in batches] == [("meta", "meta")] * 2


def test_the_problems_gradients_exceed_max_norm_at_every_float32_step():
    # What the problem is made for: clipping changes every step of the float32 loop, so a
    # loop that does not clip, or clips to another threshold, shows in every loss.
    from d2lgpu.checks._ch04_watch import MAX_NORM, STEPS, grad_norm, make_problem

    net, batches = make_problem(torch.device("cpu"))
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    norms = []
    for X, y in batches:
        opt.zero_grad()
        F.cross_entropy(net(X), y).backward()
        norms.append(grad_norm(net.parameters()))
        torch.nn.utils.clip_grad_norm_(net.parameters(), MAX_NORM)
        opt.step()
    assert len(norms) == STEPS and min(norms) > MAX_NORM, norms


def test_the_logging_scaler_logs_its_calls_and_passes_their_arguments_on():
    # The watch changes nothing of what GradScaler does: an optimizer's step gets the
    # arguments scaler.step was given, and update() the scale it was given.
    from d2lgpu.checks._ch04_watch import LoggingScaler

    log = []
    scaler = LoggingScaler("cpu", log, init_scale=8.0)
    net = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    stepped = []
    opt.step = lambda *args, **kwargs: stepped.append((args, kwargs, scaler.in_step))
    scaler.scale(net(torch.ones(1, 2)).sum()).backward()
    scaler.step(opt, "an argument", flag=1)
    assert stepped == [(("an argument",), {"flag": 1}, True)], stepped
    assert not scaler.in_step  # an opt.step() of the loop's own after it is the loop's
    scaler.update(2.0)
    assert scaler.get_scale() == 2.0
    assert log == ["scale", "scaler.step", "update(new_scale)"], log


def test_a_function_without_a_name_is_no_host_read():
    # torch hands the mode whatever was called; one without a __name__ is not a read.
    from functools import partial

    from d2lgpu.checks._ch04_watch import LearnerReads

    reads = LearnerReads()
    add_one = partial(torch.add, torch.ones(2))
    out = reads.__torch_function__(add_one, (torch.Tensor,), (torch.ones(2),))
    assert torch.equal(out, torch.full((2,), 2.0)) and reads.reads == [], reads.reads


def test_the_watched_run_leaves_no_hook_on_the_net():
    # The checker reads the net the run returns (its parameters' dtype): the watch's forward
    # and gradient hooks are removed once the answer returns.
    from d2lgpu.checks._ch04_watch import run_answer

    net, losses, seen = run_answer(amp_loop(), torch.device("cpu"), torch.bfloat16, None, 1.0)
    assert len(seen["out"]) == 2 * len(losses)  # two Linear layers, each batch
    assert not any(m._forward_hooks for m in net.modules())
    assert not any(p._backward_hooks for p in net.parameters())


def test_amp_rejects_a_half_model_and_a_bf16_path_that_needs_a_scaler():
    loop = make_amp_loop()

    def half(net, *args, **kwargs):
        return loop(net.half(), *args, **kwargs)

    assert_fails("04.amp", half, "no longer float32")

    def always_scales(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    result = assert_fails(
        "04.amp",
        always_scales,
        "with bfloat16 the scaler is None (bfloat16 has float32's range, nothing to scale): then "
        "call loss.backward(), clip and opt.step() directly",
    )
    assert len(result.passed) == 4  # everything float16 passed
    loop = make_amp_loop()

    def bf16_for_the_loop(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        if scaler is None:
            net.to(torch.bfloat16)  # no float32 master weights: each step rounds them
        try:
            return loop(net, batches, opt, device_type, dtype, scaler, max_norm=max_norm)
        finally:
            net.float()

    assert_hint(
        bf16_for_the_loop,
        "the optimizer stepped torch.bfloat16 parameters, cast back to float32 only after the "
        "loop: don't call net.half() or net.to(dtype), not even for the loop alone; autocast "
        "casts per operation and keeps float32 master weights, which each step updates",
    )


def amp_loop(*, read_each_step=False, zero_grad="before", device_type=None, loss_inside=True):
    """A correct train_amp written another way (clip imported by name), with one change."""
    from torch.nn.utils import clip_grad_norm_

    def train_amp(net, batches, opt, dev_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            if zero_grad == "before":
                opt.zero_grad(set_to_none=False)
            with torch.autocast(device_type or dev_type, dtype=dtype):
                out = net(X)
                loss = F.cross_entropy(out, y) if loss_inside else None
            if loss is None:
                loss = F.cross_entropy(out, y)
            (scaler.scale(loss) if scaler else loss).backward()
            if zero_grad == "between":
                opt.zero_grad()
            if scaler:
                scaler.unscale_(opt)
            clip_grad_norm_(net.parameters(), max_norm)
            if scaler:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
            losses.append(loss.item() if read_each_step else loss.detach())
        return losses if read_each_step else torch.stack(losses)

    return train_amp


def test_amp_alternatives_pass():
    assert_passes("04.amp", amp_loop())  # clip_grad_norm_ imported by name

    def with_net_zero_grad(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = torch.zeros(len(batches), device=batches[0][0].device)
        for i, (X, y) in enumerate(batches):
            net.zero_grad()
            with torch.amp.autocast(device_type=device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
            else:
                loss.backward()
            torch.nn.utils.clip_grad_norm_(list(net.parameters()), max_norm=max_norm)
            scaler.step(opt) if scaler is not None else opt.step()
            if scaler is not None:
                scaler.update()
            losses[i] = loss.detach()
        return losses

    assert_passes("04.amp", with_net_zero_grad)


def test_amp_rejects_reading_the_loss_every_step():
    assert_fails(
        "04.amp",
        amp_loop(read_each_step=True),
        "your loop read tensors on the host 16 times in 16 steps (item; the first in your "
        "function train_amp, line ",
    )


def test_amp_names_the_line_of_a_read_made_inside_a_library_call():
    # clip_grad_norm_(..., error_if_nonfinite=True) checks the norm on the host at every step:
    # the read is torch's, the line that asked for it the learner's.
    def checks_finite(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
            scaler.step(opt) if scaler else opt.step()
            if scaler:
                scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    result = assert_fails("04.amp", checks_finite, "16 times in 16 steps (__bool__; the first ")
    assert "clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)`)" in result.hint


def test_amp_names_losses_made_into_a_tensor_on_the_host_and_a_scale_set_by_hand():
    def rebuilt(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = make_amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm)
        return torch.tensor(list(losses))  # one host read per loss, a CPU tensor

    assert_fails(
        "04.amp",
        rebuilt,
        "with torch.float16, your loop made a tensor from a list of tensors (torch.tensor"
        "(losses)): it reads every loss on the host, a wait for the GPU each, and makes a new "
        "tensor on the CPU. Return torch.stack(losses), which stays on the device",
    )

    class FixedScale:  # the scaler given, with update(new_scale) at every step
        def __init__(self, scaler):
            self.scaler = scaler

        def __getattr__(self, name):
            return getattr(self.scaler, name)

        def update(self):
            self.scaler.update(1024.0)

    def fixed(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        wrapped = FixedScale(scaler) if scaler is not None else None
        return make_amp_loop()(net, batches, opt, device_type, dtype, wrapped, max_norm)

    assert_fails(
        "04.amp",
        fixed,
        "the loop calls scaler.update(new_scale), which sets the loss scale to the number it is "
        "given at every step: the scale then never halves after an overflow (every later step "
        "would overflow and be skipped) nor grows. Call scaler.update() with no argument: the "
        "scaler adjusts its scale itself",
    )


def test_amp_names_a_forgotten_or_misplaced_zero_grad():
    assert_fails("04.amp", amp_loop(zero_grad=None), "opt.zero_grad() before loss.backward()")
    assert_fails("04.amp", amp_loop(zero_grad="between"), "not between backward()")


def test_amp_names_a_hard_coded_device_type_and_a_loss_outside_autocast():
    other = "cuda" if not torch.cuda.is_available() else "cpu"
    # Without a GPU, torch itself warns that autocast for "cuda" is off.
    warned = (
        pytest.warns(UserWarning, match="Disabling autocast") if other == "cuda" else nullcontext()
    )
    with warned:
        assert_fails("04.amp", amp_loop(device_type=other), f"device_type {other!r}")
    assert_fails(
        "04.amp",
        amp_loop(loss_inside=False),
        "train_amp returned torch.float16 losses: compute the loss inside autocast too (autocast "
        "runs cross_entropy in float32), as well as net(X)",
    )


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
@pytest.mark.parametrize("how", ["cast", "log_softmax"])
def test_a_loss_computed_in_16_bits_is_named_however_it_is_returned(dtype_name, how):
    # The loss outside autocast, on the 16-bit logits, and cast to float32 at once: the
    # returned losses are float32, and the loss backward starts from may be too.
    def loss_of(out, y):
        if how == "cast":
            return F.cross_entropy(out, y).float()
        return F.nll_loss(F.log_softmax(out, dim=1), y).float()

    def outside(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
                out = net(X)
            # the other run's loss in float32, on the logits cast up first: right
            right = dtype != getattr(torch, dtype_name)
            loss = F.cross_entropy(out.float(), y) if right else loss_of(out, y)
            opt.zero_grad()
            (scaler.scale(loss) if scaler is not None else loss).backward()
            if scaler is not None:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt) if scaler is not None else opt.step()
            if scaler is not None:
                scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    assert_fails(
        "04.amp",
        outside,
        f"with torch.{dtype_name}, the loss was computed in torch.{dtype_name}, outside autocast, "
        "on the 16-bit logits: compute the loss inside autocast too",
    )


def test_amp_rejects_a_hard_coded_clipping_threshold():
    def threshold_ten(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=10.0)

    assert_fails(
        "04.amp",
        threshold_ten,
        "not clipped to max_norm=0.5: keep torch.nn.utils.clip_grad_norm_(net.parameters(), "
        "max_norm) after backward() and scaler.unscale_(opt)",
    )


def test_amp_calls_the_answer_with_a_max_norm_other_than_the_default():
    def default_written_in(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=1.0)

    def no_max_norm_parameter(net, batches, opt, device_type, dtype, scaler):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler)

    assert_fails(
        "04.amp",
        default_written_in,
        "with torch.float16, the gradients were clipped to 1, the default, although train_amp "
        "was called with max_norm=0.5: clip with the argument, clip_grad_norm_(net.parameters(), "
        "max_norm), not a number written into the loop",
    )
    assert_hint(
        no_max_norm_parameter,
        "train_amp does not take max_norm: keep the signature of the prompt, train_amp(net, "
        "batches, opt, device_type, dtype, scaler, max_norm=1.0), and clip to max_norm (the "
        "checker passes max_norm=0.5)",
    )


def test_amp_names_the_scaled_loss_returned_as_the_loss():
    assert_fails(
        "04.amp",
        make_amp_loop(return_scaled=True),
        "with torch.float16, the losses you return are the scaled ones, 1024 times too large (the "
        "scaler's factor): backpropagate scaler.scale(loss) but keep loss itself for the log, "
        "losses.append(loss.detach())",
    )

    def stacks_the_scaled_losses(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            scaled = scaler.scale(loss) if scaler is not None else loss
            scaled.backward()
            if scaler is not None:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            (scaler.step(opt), scaler.update()) if scaler is not None else opt.step()
            losses.append(scaled.detach())
        return torch.stack(losses)

    assert_fails("04.amp", stacks_the_scaled_losses, "scaled ones", "loss.detach()")


def test_amp_threshold_styles_that_use_the_argument_pass():
    import functools

    class AmpLoop:  # a callable object whose clipping is a partial of the argument
        def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
            clip = functools.partial(torch.nn.utils.clip_grad_norm_, max_norm=max_norm)
            losses = []
            for X, y in batches:
                opt.zero_grad()
                with torch.autocast(device_type, dtype=dtype):
                    loss = F.cross_entropy(net(X), y)
                if scaler is None:
                    loss.backward()
                    clip(net.parameters())
                    opt.step()
                else:
                    scaler.scale(loss).backward()
                    scaler.unscale_(opt)
                    clip(net.parameters())
                    scaler.step(opt)
                    scaler.update()
                losses.append(loss.detach())
            return torch.stack(losses)

    def keyword_only(net, batches, opt, device_type, dtype, scaler, *, max_norm=1.0):
        return AmpLoop()(net, batches, opt, device_type, dtype, scaler, max_norm=max_norm)

    assert_passes("04.amp", AmpLoop())
    assert_passes("04.amp", keyword_only)


# ---------------------------------------------------------------------------------------------
# On a real GPU (on a CPU, the tests above run the CUDA branches with fakes).

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


@pytest.mark.cuda
@requires_cuda
def test_on_a_gpu_amp_runs_on_it():
    assert_passes("04.amp", make_amp_loop())


def test_amp_counts_the_reads_made_in_the_loop_not_after_it():
    def floats_after_the_loop(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=max_norm)
        print([round(loss.item(), 3) for loss in losses])  # after the last step: one wait
        return losses

    assert_passes("04.amp", floats_after_the_loop)

    def stops_on_a_large_loss(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if loss > 100:  # bool() of a device value: a wait every step
                break
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            (scaler.step(opt), scaler.update()) if scaler else opt.step()
            losses.append(loss.detach())
        return torch.stack(losses)

    def prints_every_step(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        loop = amp_loop()
        losses = []
        for batch in batches:
            losses += list(loop(net, [batch], opt, device_type, dtype, scaler, max_norm=max_norm))
            print(f"loss {losses[-1]:.3f}")  # formatting a device value reads it
        return torch.stack(losses)

    for wrong in (stops_on_a_large_loss, prints_every_step):
        assert_fails("04.amp", wrong, "your loop read tensors on the host 16 times")


# ---------------------------------------------------------------------------------------------
# Each hint's words, and the wrong answers that reach the hints the tests above do not.


def assert_hint(answer, *parts):
    """Grade ``answer``: it must fail with a hint that has ``parts``, the first starting it and
    the last ending it (so a word added before or after them shows)."""
    result = assert_fails("04.amp", answer, *parts)
    assert result.hint.startswith(parts[0]) and result.hint.endswith(parts[-1]), result.hint
    return result


def loop_with(*, scales=1, step="scaler", updates=1, last_update=True, reduction="mean",
              bf16_clip=True, bf16_zero_grad="before", bf16_every=1, bf16_model=False,
              bf16_item=False, bf16_sum=False):  # fmt: skip
    """A correct train_amp with one change: ``bf16_*`` changes only the bfloat16 path."""

    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        if scaler is None and bf16_model:
            net.to(dtype)
        losses = []
        for i, (X, y) in enumerate(batches):
            if scaler is not None or bf16_zero_grad == "before":
                opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                sums = scaler is None and bf16_sum
                loss = F.cross_entropy(net(X), y, reduction="sum" if sums else reduction)
            if scaler is None:
                loss.backward()
                if bf16_zero_grad == "between":
                    opt.zero_grad()
                if bf16_clip:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                if i % bf16_every == 0:
                    opt.step()
            else:
                for _ in range(scales - 1):
                    scaler.scale(loss)  # a scaled loss made for the log, say
                (scaler.scale(loss) if scales else loss).backward()
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                if step == "scaler":
                    scaler.step(opt)
                for _ in range(updates if last_update or i < len(batches) - 1 else 0):
                    scaler.update()
            losses.append(loss.item() if scaler is None and bf16_item else loss.detach())
        return torch.stack(losses) if not bf16_item or scaler else torch.tensor(losses)

    return train_amp


def test_amp_names_each_passed_check():
    assert assert_passes("04.amp", make_amp_loop()).passed == [
        "float16: the forward runs in float16 under autocast; the parameters stay float32",
        "float16: the loss is scaled, and the scaler is stepped and updated every step",
        "float16: every step starts from zeroed gradients, unscaled before clipping "
        "(the steps' gradient norm is the max_norm passed, not the default)",
        "float16: the losses track the float32 run (within 0.02)",
        "bfloat16: the forward runs in bfloat16, without a scaler, clipping every step",
        "bfloat16: the losses track the float32 run (within 0.05)",
        "float16, once more: a scale so large that the gradients overflow is lowered",
    ]


def test_amp_names_what_was_returned_instead_of_the_losses():
    def returns(value):
        def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
            losses = loop_with()(net, batches, opt, device_type, dtype, scaler, max_norm=max_norm)
            return value(losses)

        return train_amp

    for value, returned in ((lambda losses: None, "NoneType"), (lambda losses: "done", "str")):
        assert_hint(
            returns(value),
            f"train_amp returned a {returned}: return the per-step losses, like train_fp32 "
            "(torch.stack of loss.detach())",
        )
    assert_hint(
        returns(lambda losses: losses[-1]),
        "train_amp returned 1 losses for 16 batches: one per step",
    )


def test_amp_names_a_model_never_called_and_a_bfloat16_model():
    def never_calls_the_model(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return torch.zeros(len(batches))

    assert_hint(never_calls_the_model, "the model was never called: run net(X) for every batch")
    assert_hint(None, "pass the function itself: check('04.amp', train_amp)")
    result = assert_hint(
        loop_with(bf16_model=True),
        "the parameters are no longer float32: don't call net.half() or net.to(dtype); "
        "autocast casts per operation and keeps float32 master weights",
    )
    assert len(result.passed) == 4  # everything float16 passed


def test_amp_names_the_scaler_calls_missing_or_repeated():
    scale_loss = (
        "backpropagate the scaled loss, scaler.scale(loss).backward(), so small float16 "
        "gradients do not underflow to zero"
    )
    # GradScaler itself stops a loop that never scales, at its first unscale_ or step.
    assert_hint(
        loop_with(scales=0),
        "scaler.unscale_ (or scaler.step) ran before any scaler.scale(loss): " + scale_loss,
    )
    assert_hint(
        loop_with(scales=2),
        "scaler.scale was called 32 times for 16 steps: " + scale_loss,
    )
    assert_hint(
        make_amp_loop(scaler_step=False),
        "the loop calls opt.step() itself: call scaler.step(opt) instead, which unscales the "
        "gradients and skips the step when they overflowed",
    )
    assert_hint(
        loop_with(step=None),
        "scaler.step(opt) ran 0 times for 16 steps: once per iteration",
    )
    assert_hint(
        loop_with(last_update=False),
        "scaler.update() ran 15 times for 16 steps: call it after scaler.step(opt) in every "
        "iteration; it adjusts the scale for the next one",
    )
    # GradScaler stops a second update() after one step (a step with no gradients is another hint).
    assert_hint(
        loop_with(updates=2),
        "scaler.update() ran with no scaler.step(opt) since the last update(): call it once per "
        "iteration, after scaler.step(opt)",
    )
    for wrong, said in (
        (make_amp_loop(update=False), "unscale_() is being called after step().)"),
        (
            make_amp_loop(update=False, unscale=False),
            "step() has already been called since the last update().)",
        ),
    ):
        assert_hint(
            wrong,
            "the scaler refused to unscale again before update(): call scaler.update() after "
            "scaler.step(opt) in every iteration; it adjusts the scale and resets the scaler "
            f"for the next step (GradScaler said: {said}",
        )


def test_amp_names_the_bfloat16_steps_that_go_wrong():
    assert_hint(
        loop_with(bf16_zero_grad=None),
        "with torch.bfloat16, backward() found gradients already in p.grad (the previous "
        "step's, or at the first step those the caller left on the model), and added to them: "
        "call opt.zero_grad() before loss.backward() in every iteration",
    )
    assert_hint(
        loop_with(bf16_zero_grad="between"),
        "with torch.bfloat16, the optimizer stepped with no gradients: call opt.zero_grad() "
        "before loss.backward(), not between backward() and the step",
    )
    assert_hint(
        loop_with(bf16_every=2),
        "with torch.bfloat16, the optimizer stepped 8 times for 16 batches: once per batch",
    )
    assert_hint(
        loop_with(bf16_clip=False),
        "with torch.bfloat16, the gradients' norm at the optimizer's step was between",
        "not clipped to max_norm=0.75: keep torch.nn.utils.clip_grad_norm_(net.parameters(), "
        "max_norm) after backward() and before opt.step(): a clip after the step changes "
        "gradients the step has already used",
    )


def test_amp_names_losses_that_drift_from_the_float32_run():
    assert_hint(
        loop_with(reduction="sum"),
        "with torch.float16, the losses drift from the float32 run by up to",
        "(tolerance 0.02): compute the loss from the autocast forward, and step the optimizer "
        "every iteration",
    )


def test_outputs_of_two_wrong_dtypes_are_both_named():
    def bfloat16_on_even_batches(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for i, (X, y) in enumerate(batches):
            opt.zero_grad()
            with torch.autocast(device_type, dtype=torch.bfloat16, enabled=i % 2 == 0):
                loss = F.cross_entropy(net(X), y)
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            (scaler.step(opt), scaler.update()) if scaler else opt.step()
            losses.append(loss.detach())
        return torch.stack(losses)

    assert_hint(
        bfloat16_on_even_batches,
        "with torch.float16, the forward pass produced torch.bfloat16, torch.float32 outputs: "
        "run net(X) (and the loss) inside torch.amp.autocast(device_type, dtype=torch.float16)",
    )


def test_amp_names_the_dtype_of_each_run_in_its_hints():
    assert_hint(
        make_amp_loop(autocast_forward=False),
        "with torch.float16, the forward pass produced torch.float32 outputs: run net(X) (and the "
        "loss) inside torch.amp.autocast(device_type, dtype=torch.float16)",
    )

    def float16_written_in(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return amp_loop()(net, batches, opt, device_type, torch.float16, scaler, max_norm=max_norm)

    assert_hint(
        float16_written_in,
        "with torch.bfloat16, the forward pass produced torch.float16 outputs: run net(X) (and the "
        "loss) inside torch.amp.autocast(device_type, dtype=torch.bfloat16)",
    )

    def stops_on_a_nan_loss(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if not torch.isfinite(loss):  # bool() of a device value: a wait every step
                break
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            (scaler.step(opt), scaler.update()) if scaler else opt.step()
            losses.append(loss.item())
        return losses

    assert_hint(
        stops_on_a_nan_loss,
        "with torch.float16, your loop read tensors on the host 32 times in 16 steps (__bool__, "
        "item; the first in your function stops_on_a_nan_loss, line ",
        "and return torch.stack(losses)",
    )


def logs_every(k, first):
    """A correct train_amp that prints the loss after steps first, first + k, ..."""

    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for i, batch in enumerate(batches):
            losses += list(amp_loop()(net, [batch], opt, device_type, dtype, scaler, max_norm))
            if i % k == first:
                print(f"step {i}: loss {losses[-1].item():.3f}")
        return torch.stack(losses)

    return train_amp


def test_amp_names_a_loop_that_reads_on_the_host_even_once(capsys):
    # The prompt: no .item() or float(loss) in the loop, each read a wait for the GPU, counted.
    # A log every few steps is such a read; a read after the last step is the end's transfer.
    assert_hint(
        logs_every(10, 9),  # after step 9 only (16 steps)
        "with torch.float16, your loop read tensors on the host once in 16 steps (item; the "
        "first in your function train_amp, line ",
        "and return torch.stack(losses)",
    )
    assert_hint(
        logs_every(8, 0),  # after steps 0 and 8
        "with torch.float16, your loop read tensors on the host 2 times in 16 steps (item; the "
        "first in your function train_amp, line ",
        "and return torch.stack(losses)",
    )
    assert_passes("04.amp", logs_every(16, 15))  # after the last step: the end's transfer


def test_amp_names_the_bfloat16_run_in_its_read_and_drift_hints():
    assert_hint(  # the bfloat16 branch copied from a float32 loop that logged loss.item()
        loop_with(bf16_item=True),
        "with torch.bfloat16, your loop read tensors on the host 16 times in 16 steps (item; the first in your "
        "function train_amp, line ",
        "and return torch.stack(losses)",
    )
    assert_hint(
        loop_with(bf16_sum=True),
        "with torch.bfloat16, the losses drift from the float32 run by up to",
        "(tolerance 0.05): compute the loss from the autocast forward, and step the optimizer "
        "every iteration",
    )


# ---------------------------------------------------------------------------------------------
# What a loop may not do that leaves its losses right: backward under autocast, a scaler of its
# own, unscale_ twice; and what it returns, which must be what train_fp32 returns.


def amp_variant(*, backward_in_autocast=False, own_scaler=None, unscales=1, returns=None):
    """A correct train_amp with one change. ``own_scaler``: "each step" (a new GradScaler every
    step for float16), "bf16" (one made when scaler is None) or "bf16 disabled" (a disabled
    one standing in for None, which is right); ``returns``: a function of the stacked losses
    ("undetached" keeps the graphs instead)."""

    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        if scaler is None and own_scaler in ("bf16", "bf16 disabled"):
            scaler = torch.amp.GradScaler(device_type, enabled=own_scaler == "bf16")
        losses = []
        for X, y in batches:
            opt.zero_grad()
            autocast = torch.autocast(device_type, dtype=dtype)
            autocast.__enter__()
            loss = F.cross_entropy(net(X), y)
            if not backward_in_autocast:
                autocast.__exit__(None, None, None)
            if scaler is not None and own_scaler == "each step":
                scaler = torch.amp.GradScaler(device_type)
            if scaler is None:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                opt.step()
            else:
                scaler.scale(loss).backward()
                for _ in range(unscales):
                    scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                scaler.step(opt)
                scaler.update()
            if backward_in_autocast:
                autocast.__exit__(None, None, None)
            losses.append(loss if returns == "undetached" else loss.detach())
        stacked = torch.stack(losses)
        return returns(stacked, losses) if callable(returns) else stacked

    return train_amp


def test_amp_names_a_backward_run_inside_autocast():
    assert_hint(
        amp_variant(backward_in_autocast=True),
        "with torch.float16, backward() ran inside the autocast block: autocast wraps only the "
        "forward pass and the loss. Leave the with block before backward(), unscale_, clipping "
        "and the step",
    )


def test_amp_names_a_scaler_made_by_the_loop():
    assert_hint(
        amp_variant(own_scaler="each step"),
        "your loop made its own GradScaler (16 for 16 steps) instead of using the one it was "
        "given: use the scaler you were given, scaler.scale(loss), scaler.step(opt), "
        "scaler.update(); it carries the loss scale from step to step",
    )
    result = assert_hint(
        amp_variant(own_scaler="bf16"),
        "with bfloat16 the scaler is None and your loop made a GradScaler of its own: bfloat16 "
        "needs no scaler (it has float32's range, its gradients do not underflow). When scaler "
        "is None, call loss.backward(), clip and opt.step() directly",
    )
    assert len(result.passed) == 4  # everything float16 passed
    # A disabled GradScaler standing in for None scales nothing: one code path, right.
    assert_passes("04.amp", amp_variant(own_scaler="bf16 disabled"))


def test_amp_names_unscale_called_twice_in_a_step():
    assert_hint(
        amp_variant(unscales=2),
        "scaler.unscale_(opt) ran twice in one step: call unscale_ once per step, after "
        "backward() and before clipping; scaler.step(opt) does not need it again (it unscales "
        "only gradients not yet unscaled), then scaler.update()",
    )


def test_amp_wants_the_losses_as_train_fp32_returns_them():
    # The prompt: loss.detach() into a list, torch.stack at the end, on the device (the
    # chapter's next cell calls losses.float() on what train_amp returns).
    assert_hint(
        amp_variant(returns=lambda stacked, losses: losses),
        "with torch.float16, train_amp returned a list, not a tensor: return the losses as "
        "train_fp32 does, losses.append(loss.detach()) in the loop and torch.stack(losses) at "
        "the end (a tensor on the device)",
    )
    assert_fails(  # floats taken after the loop: no read in the loop, but not a tensor
        "04.amp",
        amp_variant(returns=lambda stacked, losses: [loss.item() for loss in losses]),
        "with torch.float16, train_amp returned a list, not a tensor",
    )
    assert_hint(
        amp_variant(returns="undetached"),
        "with torch.float16, the losses train_amp returned still require grad: each keeps its "
        "step's autograd graph alive. Keep loss.detach(), losses.append(loss.detach())",
    )
    for to_host in (lambda stacked, losses: stacked.cpu(), lambda s, losses: s.float().cpu()):
        assert_hint(
            amp_variant(returns=to_host),
            "with torch.float16, train_amp moved the losses to the host (.cpu()): return them on "
            "the device, torch.stack(losses) as train_fp32 does; whoever needs them on the host "
            "copies them once, when it needs them",
        )

    def reads_after_the_loop(stacked, losses):
        print(f"last loss {stacked[-1].cpu().item():.3f}")  # after the last step: one wait
        return stacked

    assert_passes("04.amp", amp_variant(returns=reads_after_the_loop))


def test_amp_names_a_clip_of_one_of_the_optimizers_parameter_groups():
    """The checker's optimizer has two parameter groups (the biases apart): the same SGD steps
    as one group, so a clip of opt.param_groups[0] alone shows, named."""

    def first_group(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return clips_as(lambda params, m: torch.nn.utils.clip_grad_norm_(
            opt.param_groups[0]["params"], m))(net, batches, opt, device_type, dtype, scaler,
                                              max_norm=max_norm)  # fmt: skip

    assert_hint(
        first_group,
        "with torch.float16, only the gradients of the optimizer's parameter group 0 (of 2) "
        "were clipped to max_norm=0.5, so the whole model's norm was up to 0.586: clip all the "
        "model's parameters, clip_grad_norm_(net.parameters(), max_norm), whatever groups the "
        "optimizer has",
    )

    def every_group(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        params = [p for group in opt.param_groups for p in group["params"]]
        return clips_as(lambda _, m: torch.nn.utils.clip_grad_norm_(params, m))(
            net, batches, opt, device_type, dtype, scaler, max_norm=max_norm
        )

    assert_passes("04.amp", every_group)


class KeepsFromTheFirstCall:
    """A train_amp object that keeps the first call's parameters or scaler for later calls."""

    def __init__(self, keep):
        self.keep, self.params, self.scaler = keep, None, None

    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        if self.keep == "params":
            self.params = self.params or list(net.parameters())
        if self.keep == "scaler":
            self.scaler = self.scaler or scaler
        params, scaler = self.params or list(net.parameters()), self.scaler or scaler
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(params, max_norm)
            (scaler.step(opt), scaler.update()) if scaler else opt.step()
            losses.append(loss.detach())
        return torch.stack(losses)


def test_amp_names_a_scaler_or_parameters_kept_from_the_first_call():
    assert_hint(
        KeepsFromTheFirstCall("scaler"),
        "with torch.bfloat16 (scaler=None), your loop still called the GradScaler of the "
        "earlier call (scale, scaler.step, update): keep no scaler between calls. Use the "
        "scaler each call is given, and none when scaler is None",
    )
    assert_hint(
        KeepsFromTheFirstCall("params"),
        "with torch.bfloat16, your loop changed the gradients of the earlier call's net (its "
        "parameters kept from the first call and clipped again?): keep nothing between calls; "
        "clip the parameters of the net each call is given, clip_grad_norm_(net.parameters(), "
        "max_norm)",
    )
    assert_passes("04.amp", KeepsFromTheFirstCall(None))


def test_clipping_by_element_or_by_the_largest_element_is_told_from_the_total_norm():
    from d2lgpu.checks._ch04_watch import clip_kind_hint

    # (largest element, how many elements are it) and the norm, at each step
    clamped = {"largest": [(0.5, 2), (0.5, 2)], "norms": [0.6, 0.76]}  # two at the bound
    assert clip_kind_hint(clamped, "torch.float16", 0.5) == (
        "with torch.float16, every gradient element at the optimizer's step was at most "
        "max_norm=0.5, several exactly that, but the gradients' norm was up to 0.76: each "
        "element was clamped (clip_grad_value_), which changes the gradient's direction and "
        "leaves its length unbounded. Clip the total norm: clip_grad_norm_(net.parameters(), "
        "max_norm)"
    )
    by_inf = {"largest": [(0.3, 1), (0.5, 1)], "norms": [1.2, 4.57]}
    assert clip_kind_hint(by_inf, "torch.float16", 0.5) == (
        "with torch.float16, the gradients' largest element at the optimizer's step was "
        "max_norm=0.5, but their norm was up to 4.57: they were clipped by the infinity norm "
        "(norm_type=float('inf')). Clip by the Euclidean norm, clip_grad_norm_'s default "
        "norm_type=2.0"
    )
    # the bounds are inclusive: the largest element within 1% of max_norm either way, the
    # norm more than 1% above it
    for top in (0.99, 1.01):
        assert clip_kind_hint({"largest": [(top, 1)], "norms": [3.0]}, "f", 1.0) is not None
    assert clip_kind_hint({"largest": [(1.0, 1)], "norms": [1.01]}, "f", 1.0) is None
    for right in (
        {"largest": [(0.2, 1)], "norms": [0.5]},  # the total norm clipped
        {"largest": [(0.9, 1)], "norms": [4.0]},  # not clipped at all: another hint's
        {"largest": [(0.3, 1)], "norms": [4.0]},  # no element reaches max_norm
        {"largest": [], "norms": [4.0]},
        {"largest": [(0.5, 1)], "norms": []},  # no step
        {"largest": [(0.5, 1)], "norms": [0.5]},  # the norm within max_norm of 0.5 (not 1)
    ):
        assert clip_kind_hint(right, "torch.float16", 0.5) is None, right
    assert clip_kind_hint({"largest": [], "norms": [4.0]}, "f", 1.0) is None
    assert clip_kind_hint({"largest": [(2.0, 1)], "norms": [1.5]}, "f", 2.0) is None


def test_amp_names_losses_moved_to_the_host_in_the_bfloat16_run_alone():
    right = amp_variant()

    def host_for_bf16(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = right(net, batches, opt, device_type, dtype, scaler, max_norm)
        return losses.cpu() if dtype == torch.bfloat16 else losses

    result = assert_fails("04.amp", host_for_bf16, "train_amp moved the losses to the host")
    assert result.hint.startswith("with torch.bfloat16, train_amp moved the losses to the host")


def test_amp_names_gradients_clipped_by_value_in_the_graded_run():
    def clips_by_value(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if scaler is None:
                loss.backward()
                torch.nn.utils.clip_grad_value_(net.parameters(), max_norm)
                opt.step()
            else:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_value_(net.parameters(), max_norm)
                scaler.step(opt)
                scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    result = assert_fails("04.amp", clips_by_value, "(clip_grad_value_)")
    assert result.hint.startswith("with torch.float16, every gradient element"), result.hint


@pytest.mark.parametrize("by_keyword", [False, True], ids=["positional", "keyword"])
def test_an_optimizer_step_given_a_closure_passes(by_keyword):
    # opt.step(closure) where nothing is scaled: the closure makes the gradients inside the
    # step, so the checker reads them after it ran, not before (a GradScaler takes no closure)
    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:

            def closure(X=X, y=y):
                opt.zero_grad()
                with torch.autocast(device_type, dtype=dtype):
                    loss = F.cross_entropy(net(X), y)
                (scaler.scale(loss) if scaler else loss).backward()
                if scaler:
                    scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                return loss

            if scaler:
                loss = closure()
                scaler.step(opt)
                scaler.update()
            else:
                loss = opt.step(closure=closure) if by_keyword else opt.step(closure)
            losses.append(loss.detach())
        return torch.stack(losses)

    assert_passes("04.amp", train_amp)


def clips_at(factor, unscale=True):
    """The right loop, but clipping to ``factor`` times max_norm ("for headroom"), the
    gradients unscaled first unless ``unscale`` is False."""

    def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler and unscale:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm * factor)
            (scaler.step(opt), scaler.update()) if scaler else opt.step()
            losses.append(loss.detach())
        return torch.stack(losses)

    return train_amp


@pytest.mark.parametrize("factor", [1.02, 0.98, 2.0])
def test_gradients_clipped_while_scaled_to_another_threshold_are_not_clipped_to_max_norm(factor):
    # The scaled rule holds steps of max_norm / 1024 within 1%; these are 2% or more off it,
    # two mistakes at once, and named by the general rule, which asks for unscale_ too.
    norm = f"{0.5 * factor / 1024:.3g}"
    assert_fails(
        "04.amp",
        clips_at(factor, unscale=False),
        f"with torch.float16, the gradients' norm at the optimizer's step was between {norm} "
        f"and {norm}, not clipped to max_norm=0.5: keep torch.nn.utils.clip_grad_norm_(net."
        "parameters(), max_norm) after backward() and scaler.unscale_(opt)",
    )


@pytest.mark.parametrize(("factor", "norm"), [(1.5, "0.75"), (1.02, "0.51"), (0.98, "0.49")])
def test_a_threshold_off_by_a_factor_is_named_with_the_norms_it_gave(factor, norm):
    assert_fails(
        "04.amp",
        clips_at(factor),
        f"with torch.float16, the gradients' norm at the optimizer's step was between {norm} "
        f"and {norm}, not clipped to max_norm=0.5",
    )


def _clipped_after_the_step(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            scaler.step(opt)
            scaler.update()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)  # too late: stepped
        losses.append(loss.detach())
    return torch.stack(losses)


def test_amp_names_a_clip_after_the_step_with_where_the_clip_goes():
    assert_fails(
        "04.amp",
        _clipped_after_the_step,
        "after backward() and scaler.unscale_(opt), and before scaler.step(opt): a clip after "
        "the step changes gradients the step has already used",
    )


def test_amp_names_an_autocast_dtype_set_for_the_process_though_a_later_run_sets_it_back():
    def set_for_the_process(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        torch.set_autocast_dtype(device_type, dtype)  # the bfloat16 run sets the CPU's default
        return amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=max_norm)

    # on a GPU the first run is CUDA's in bfloat16, whose default is float16
    changed = ("cuda", torch.bfloat16) if torch.cuda.is_available() else ("cpu", torch.float16)
    before = torch.get_autocast_dtype(changed[0])
    assert_fails(
        "04.amp",
        set_for_the_process,
        "train_amp leaves a process-wide setting changed (torch.set_autocast_dtype("
        f"'{changed[0]}', {changed[1]}))",
    )
    assert torch.get_autocast_dtype(changed[0]) == before  # and it is put back
