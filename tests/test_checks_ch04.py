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
    assert len(assert_passes("04.amp", make_amp_loop()).passed) == 6


def test_amp_rejects_clipping_before_unscaling():
    assert_fails(
        "04.amp",
        make_amp_loop(clip_before_unscale=True),
        "call scaler.unscale_(opt) before clip_grad_norm_",
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
        each_parameter: "between 0.708 and 0.769, not clipped to max_norm=0.5",
        l1_norm: "not clipped to max_norm=0.5",
        half_the_threshold: "between 0.25 and 0.25, not clipped to max_norm=0.5",
    }
    for clip, hint in wrong.items():
        result = assert_fails(
            "04.amp", clips_as(clip), hint, "after backward() and scaler.unscale_(opt)"
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
        "with torch.float16, your loop read tensors on the host 4 times in 16 steps (item): "
        "each read (loss.item(), float(loss)) waits for the GPU. Keep the losses on the device "
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


def test_amp_names_a_signature_without_max_norm_in_full():
    def no_max_norm(net, batches, opt, device_type, dtype, scaler):
        return make_amp_loop()(net, batches, opt, device_type, dtype, scaler)

    assert_fails(
        "04.amp",
        no_max_norm,
        "train_amp does not take max_norm: keep the signature of the prompt, "
        "train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0), and clip to "
        "max_norm (the checker passes max_norm=0.5)",
    )


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

    result = assert_fails("04.amp", always_scales, "with bfloat16 the scaler is None")
    assert len(result.passed) == 4  # everything float16 passed


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
    assert_fails("04.amp", amp_loop(read_each_step=True), "16 times", "item", "loss.detach()")


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
    assert_fails("04.amp", amp_loop(loss_inside=False), "float16 losses", "inside autocast")


def test_amp_rejects_a_hard_coded_clipping_threshold():
    def threshold_ten(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=10.0)

    assert_fails("04.amp", threshold_ten, "not clipped to max_norm=0.5")


def test_amp_calls_the_answer_with_a_max_norm_other_than_the_default():
    def default_written_in(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=1.0)

    def no_max_norm_parameter(net, batches, opt, device_type, dtype, scaler):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler)

    assert_fails("04.amp", default_written_in, "clipped to 1, the default", "max_norm=0.5")
    assert_fails("04.amp", no_max_norm_parameter, "does not take max_norm")


def test_amp_names_the_scaled_loss_returned_as_the_loss():
    assert_fails("04.amp", make_amp_loop(return_scaled=True), "scaled ones", "1024 times")

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
        return [loss.item() for loss in losses]  # after the last step: one wait, then host data

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
