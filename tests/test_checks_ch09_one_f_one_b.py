"""09.one_f_one_b: right answers in two styles pass; GPipe's order, no warm-up, one warm-up
forward too many or too few, backwards out of order, unweighted losses, torch.chunk's
micro-batches and a graph left whole fail with a hint that names the mistake."""

import functools
import re
from unittest import mock

import grading_helpers
import pytest
import torch
from torch import nn

from d2lgpu.grading import check
from d2lgpu.pipeline import gpipe_order, micro_batches, one_f_one_b_order, schedule_ticks


def assert_fails(answer, *hint_parts):
    return grading_helpers.assert_fails("09.one_f_one_b", answer, *hint_parts)


def one_f_one_b(n_stages, n_micro, warm_up=lambda s, k, m: min(s - k - 1, m)):
    orders = []
    for k in range(n_stages):
        warm = warm_up(n_stages, k, n_micro)
        order = [("F", i) for i in range(warm)]
        for i in range(n_micro - warm):
            order += [("F", warm + i), ("B", i)]
        orders.append(order + [("B", i) for i in range(n_micro - warm, n_micro)])
    return orders


def executor(
    make_orders, split=micro_batches, weight=True, detach=True, ones_back=False, grad_in=True,
    keep=(), cut_first=False, cast=False, in_place=False, copy=False,
):  # fmt: skip
    """A step that runs `make_orders(S, M)` round-robin: each stage its next action as soon
    as what it needs is done. `keep`: "outputs", "inputs", the dicts never emptied;
    `cut_first`: stage 0's input cut too; `cast`: targets cast to the output's dtype;
    `copy`: each stage's input cut from a copy of the output before it (clone()). Given
    "first" in place of True, `cut_first`, `in_place` and `copy` apply to micro-batch 0 alone."""

    def step(stages, x, y, loss_fn, n_micro):
        xs, ys = split(x, n_micro), split(y, n_micro)
        n, m, last = len(stages), len(xs), len(stages) - 1
        pending = [list(o) for o in make_orders(n, m)]
        inputs, outputs, losses, done = {}, {}, [], set()
        while any(pending):
            moved = False
            for k in range(n):
                if not pending[k]:
                    continue
                a, i = pending[k][0]
                if a == "F":
                    need = ("F", k - 1, i) if k > 0 else None
                else:
                    need = ("B", k + 1, i) if k < last else ("F", k, i)
                if need is not None and need not in done:
                    continue
                pending[k].pop(0)
                moved = True
                if a == "F":
                    h = xs[i] if k == 0 else outputs[k - 1, i]

                    def here(flag, i=i):  # True: every micro-batch; "first": micro-batch 0 alone
                        return flag is True or (flag == "first" and i == 0)

                    if (k > 0 or here(cut_first)) and detach:
                        h = h.clone() if here(copy) else h
                        h = h.detach_() if here(in_place) else h.detach()
                        h = h.requires_grad_(grad_in)
                    out = stages[k](h)
                    if k == last:
                        target = ys[i].to(out.dtype) if cast else ys[i]
                        out = loss_fn(out, target) * (len(xs[i]) / len(x) if weight else 1)
                    inputs[k, i], outputs[k, i] = h, out
                else:
                    # what backward used is dropped: 1F1B's memory
                    out = outputs[k, i] if "outputs" in keep else outputs.pop((k, i))
                    if k == last:
                        out.backward(retain_graph=not detach)
                        losses.append(out.detach())
                    elif detach:  # ones_back: a gradient of ones, not the next stage's
                        grad = (
                            inputs[k + 1, i] if "inputs" in keep else inputs.pop((k + 1, i))
                        ).grad
                        out.backward(torch.ones_like(grad) if ones_back else grad)
                done.add((a, k, i))
            assert moved, "stuck"
        return torch.stack(losses).sum()

    return step


def by_ticks(stages, x, y, loss_fn, n_micro):
    """The chapter's way: the library's orders, run in the order an ideal clock starts them.
    Right orders, but the prompt asks for them written by the learner: named below."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    last = len(stages) - 1
    inputs, outputs, losses = {}, {}, []
    ticks = schedule_ticks(one_f_one_b_order(len(stages), len(xs)))
    for s in sorted(ticks, key=lambda s: (s.start, s.stage)):
        k, i = s.stage, s.micro_batch
        if s.phase == "forward":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == last:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = h, out
        elif k == last:
            outputs[k, i].backward()
            losses.append(outputs[k, i].detach())
        else:
            outputs[k, i].backward(inputs[k + 1, i].grad)
    return float(torch.stack(losses).sum())


@pytest.mark.parametrize(
    "answer",
    [executor(one_f_one_b), executor(one_f_one_b, keep=("outputs", "inputs"))],
    ids=["dicts_popped", "boundary_tensors_kept_to_the_end"],
)  # the prompt asks each backward to free what it saved, not to drop the boundary tensors
def test_right_answers_pass(answer):
    result = check("09.one_f_one_b", answer, quiet=True)
    assert result.ok, str(result)
    assert any("[4, 3, 2, 1]" in p for p in result.passed)


def test_a_step_that_reseeds_the_global_generator_is_named():
    right = executor(one_f_one_b)

    def reseeds(*args):
        torch.manual_seed(0)  # "for reproducibility"
        return right(*args)

    assert_fails(reseeds, "your step called torch.manual_seed() and left torch's global random")


def test_the_libraries_orders_are_named_however_imported():
    # by_ticks imported one_f_one_b_order and schedule_ticks at the top of this file
    assert_fails(
        by_ticks,
        "your step called d2lgpu.pipeline's one_f_one_b_order",
        "the orders written yourself",
    )


def reversed_drain(n, m):
    orders = one_f_one_b(n, m)
    for order in orders:
        tail = [j for j, (a, _) in enumerate(order) if a == "B"][-2:]
        if len(tail) == 2 and order[tail[0] + 1 :] == [order[tail[1]]]:
            order[tail[0]], order[tail[1]] = order[tail[1]], order[tail[0]]
    return orders


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (executor(gpipe_order), ["GPipe's order", "1F1B's order is F0 F1 B0"]),
        (executor(lambda n, m: one_f_one_b(n, m, lambda s, k, mm: 0)), ["no warm-up"]),
        (executor(lambda n, m: one_f_one_b(n, m, lambda s, k, mm: min(s - k, mm))),
         ["3 forwards before its first backward", "min(S - k, M) = 2"]),
        (executor(lambda n, m: one_f_one_b(n, m, lambda s, k, mm: min(s - 1, mm))),
         ["stage 2 of 2", "2 forwards before its first backward", "min(S - k, M) = 1"]),
        (executor(reversed_drain), ["backwards in the order of the micro-batches"]),
        (executor(one_f_one_b, weight=False), ["weight each micro-batch's mean loss"]),
        (executor(one_f_one_b, split=lambda t, m: torch.chunk(t, m)), ["non-empty micro-batches"]),
        (executor(one_f_one_b, detach=False), ["got stage 1's output itself, graph and all"]),
    ],
)  # fmt: skip
def test_mistakes_are_named(answer, hints):
    assert_fails(answer, *hints)


def test_stub_and_bad_returns():
    def stub(stages, x, y, loss_fn, n_micro):
        raise NotImplementedError("your code here")

    assert check("09.one_f_one_b", stub, quiet=True).status == "not attempted"

    def returns_nothing(stages, x, y, loss_fn, n_micro):
        executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)

    assert_fails(returns_nothing, "return the batch's loss")
    assert_fails(3, "must be the function one_f_one_b_step")


def test_the_cases_cover_fewer_rows_than_micro_batches_and_one_stage():
    from d2lgpu.checks.ch09_one_f_one_b import CASES

    assert any(rows < m for _, rows, m in CASES)
    assert any(n == 1 for n, _, _ in CASES) and any(n == 4 for n, _, _ in CASES)
    assert any(len(torch.chunk(torch.arange(rows), m)) != min(m, rows) for _, rows, m in CASES)
    assert nn  # the stages are nn.Modules (used by the checker)


# The stages start with gradients, and loss_fn changes between cases.


def zeroing_first(stages, x, y, loss_fn, n_micro):
    for stage in stages:
        stage.zero_grad()  # "a clean step", which the prompt leaves to the caller
    return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)


def grads_zeroed_in_place(stages, x, y, loss_fn, n_micro):
    for p in (p for stage in stages for p in stage.parameters()):
        p.grad.zero_()  # zero_grad(set_to_none=False)
    return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)


def grads_assigned_none(stages, x, y, loss_fn, n_micro):
    for p in (p for stage in stages for p in stage.parameters()):
        p.grad = None
    return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)


def mse_written_in(stages, x, y, loss_fn, n_micro):
    return executor(one_f_one_b)(stages, x, y, nn.functional.mse_loss, n_micro)


def mse_module_written_in(stages, x, y, loss_fn, n_micro):
    return executor(one_f_one_b)(stages, x, y, nn.MSELoss(), n_micro)


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (zeroing_first, ["had before the step are gone", "zero_grad()", "caller zeros"]),
        (grads_zeroed_in_place, ["had before the step are gone", "p.grad = None"]),
        (grads_assigned_none, ["had before the step are gone", "the checker gave them some"]),
        (mse_written_in, ["the loss it returned is mse_loss's", "the loss_fn you were given"]),
        (mse_module_written_in, ["4 stages", "the loss it returned is mse_loss's"]),
    ],
    ids=lambda a: getattr(a, "__name__", "hint"),
)
def test_resets_and_written_in_losses_are_named(answer, hints):
    assert_fails(answer, *hints)


class OneFOneB:
    """A callable object that runs the stages' orders from a helper, with a print per step."""

    def __call__(self, stages, x, y, loss_fn, n_micro):
        loss = executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        print(f"{len(stages)} stages: loss {float(loss):.4f}")
        return torch.from_numpy(loss.detach().numpy().copy())  # a numpy round-trip


def weighted(loss_fn, n, out, target):
    return loss_fn(out, target).mul_(len(target) / n)  # weighted in place


def scaled_in_place(stages, x, y, loss_fn, n_micro):
    """Each micro-batch's loss weighted in place (mul_), through a functools.partial."""
    share = functools.partial(weighted, loss_fn, len(x))
    return executor(one_f_one_b, weight=False)(stages, x, y, share, n_micro)


@pytest.mark.parametrize("answer", [OneFOneB(), scaled_in_place], ids=["callable", "mul_"])
def test_right_answers_in_other_styles_pass(answer):
    assert check("09.one_f_one_b", answer, quiet=True).ok


def test_gradients_cleared_after_the_step_are_named():
    def zeroing_last(stages, x, y, loss_fn, n_micro):
        loss = executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        for stage in stages:
            stage.zero_grad()  # "tidy up" after the step: the gradients it made are gone too
        return loss

    result = assert_fails(zeroing_last, "no stage has a gradient, not even the ones they had")
    assert "something set them to None (zero_grad() does)" in result.hint


def test_a_stage_given_the_wrong_gradient_from_the_next_is_named():
    result = assert_fails(
        executor(one_f_one_b, ones_back=True), "has a gradient unlike the unsplit"
    )
    assert result.hint.startswith(
        "(2 stages, 8 rows in 4 micro-batches) stage 1's layers.0.weight "
    )
    assert "(out.backward(h.grad))" in result.hint


def test_one_stage_left_without_gradients_is_named():
    def first_stage_cleared(stages, x, y, loss_fn, n_micro):
        loss = executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        stages[0].zero_grad()  # one stage "tidied up": its gradients are gone
        return loss

    result = assert_fails(first_stage_cleared)
    assert (
        result.hint
        == "(2 stages, 8 rows in 4 micro-batches) stage 1's layers.0.weight has no gradient"
    )


def test_a_schedule_without_warm_up_is_told_what_it_ran_and_why_it_is_slow():
    no_warm_up = executor(lambda n, m: one_f_one_b(n, m, lambda s, k, mm: 0))
    hint = assert_fails(no_warm_up, "ran F0 B0 F1 B1 F2 B2 F3 B3").hint
    assert "(no warm-up: the stages take turns instead of working at once). 1F1B's order" in hint


def test_one_warm_up_forward_too_many_is_not_called_no_warm_up():
    one_too_many = executor(lambda n, m: one_f_one_b(n, m, lambda s, k, mm: min(s - k, mm)))
    hint = assert_fails(one_too_many, "3 forwards before its first backward").hint
    assert "its min(S - k - 1, M) warm-up forwards and one more. 1F1B's order is" in hint
    assert "no warm-up" not in hint


def two_forwards_then_two_backwards(n, m):
    """1F1B's warm-up and backward order, but once in the steady state a second forward
    runs before the backward that should come between them."""
    orders = one_f_one_b(n, m)
    for order in orders:
        backs = [j for j, (a, _) in enumerate(order) if a == "B"]
        if len(backs) > 1 and backs[1] + 1 < len(order) and order[backs[1] + 1][0] == "F":
            j = backs[1]
            order[j], order[j + 1] = order[j + 1], order[j]
    return orders


def test_a_steady_state_that_does_not_alternate_is_named():
    hint = assert_fails(executor(two_forwards_then_two_backwards)).hint
    assert "after the warm-up, one forward then one backward, in turn" in hint
    assert "backwards in the order" not in hint and "forwards before its first backward" not in hint


def test_a_stage_whose_gradients_alone_are_wrong_is_the_one_named():
    def last_stage_reset(stages, x, y, loss_fn, n_micro):
        stages[-1].zero_grad(set_to_none=False)  # "the loss stage starts fresh"
        return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)

    hint = assert_fails(last_stage_reset, "has a gradient unlike the unsplit").hint
    assert hint.startswith("(2 stages, 8 rows in 4 micro-batches) stage 2's layers.0.weight "), hint


def test_a_step_that_runs_no_backward_is_told_what_it_ran():
    def forwards_only(stages, x, y, loss_fn, n_micro):
        total = 0.0
        for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
            h = xb
            for stage in stages:
                h = stage(h)
            total += loss_fn(h, yb).item() * len(xb) / len(x)  # backward forgotten
        return total

    assert_fails(forwards_only, "stage 1 of 2 (k = 0) with 4 micro-batches ran F0 F1 F2 F3:",
                 "each micro-batch's forward and backward once")  # fmt: skip


def test_a_backward_of_unweighted_losses_behind_a_weighted_report_is_named():
    def weights_only_the_report(stages, x, y, loss_fn, n_micro):
        reported = []

        def mean_loss(out, target):  # backward runs on each micro-batch's mean loss
            loss = loss_fn(out, target)
            reported.append(loss.detach() * len(target) / len(x))  # weighted, for the report
            return loss

        executor(one_f_one_b, weight=False)(stages, x, y, mean_loss, n_micro)
        return torch.stack(reported).sum()

    hint = assert_fails(weights_only_the_report, "has a gradient unlike the unsplit").hint
    assert "weight each micro-batch's loss by its share" in hint


def test_checking_leaves_the_global_random_state_as_it_was():
    # the checker draws its data from its own generators: a notebook's random numbers after
    # a check are the ones it would draw without it
    torch.manual_seed(7)
    before = torch.random.get_rng_state()
    assert check("09.one_f_one_b", executor(one_f_one_b), quiet=True).ok
    assert torch.equal(torch.random.get_rng_state(), before)


def test_a_rerun_gives_the_same_hint():
    # the loss in the hint comes from the case's data: the same on every run
    answer = executor(one_f_one_b, weight=False)
    hints = {check("09.one_f_one_b", answer, quiet=True).hint for _ in range(2)}
    assert len(hints) == 1, hints
    assert "the loss it returned is" in hints.pop()


def test_a_graph_not_cut_between_the_stages_is_named_not_the_warm_up():
    # Each stage gets the stage before's output as it is: the last stage's backward runs every
    # stage's backward at once, and the orders differ from 1F1B's for that reason alone.
    def uncut(stages, x, y, loss_fn, n_micro):
        m = min(n_micro, len(x))
        xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
        losses = []
        for i in range(m):
            h = xs[i]
            for stage in stages:
                h = stage(h)
            losses.append(loss_fn(h, ys[i]) * (len(xs[i]) / len(x)))
            if i >= len(stages) - 1:
                losses[i - len(stages) + 1].backward()
        for loss in losses[max(0, m - len(stages) + 1) :]:
            loss.backward()
        return sum(loss.detach() for loss in losses)

    hint = assert_fails(
        uncut, "stage 2 got stage 1's output itself, graph and all",
        "a detached copy that requires a gradient",
    ).hint  # fmt: skip
    assert "warm-up forwards" not in hint, hint


def test_micro_batches_run_out_of_order_are_named():
    # 1F1B's shape on every stage, but from the last micro-batch to the first: the log knows
    # each micro-batch by its values, not by how many forwards came before it
    def reversed_orders(n, m):
        return [[(a, m - 1 - i) for a, i in order] for order in one_f_one_b(n, m)]

    assert_fails(
        executor(reversed_orders), "ran F3 F2 B3 F1 B2 F0 B1 B0",
        "forwards in the order of the micro-batches, 0 first",
    )  # fmt: skip


def test_gradients_that_carry_a_graph_are_named():
    # Every backward with create_graph=True: the right values, a graph in every gradient
    plain = torch.Tensor.backward

    def with_graph(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        return plain(self, gradient, retain_graph, True, inputs)

    def step(stages, x, y, loss_fn, n_micro):
        with mock.patch.object(torch.Tensor, "backward", with_graph):
            return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)

    assert_fails(step, "the gradients carry a graph of their own", "create_graph=True")


def test_a_graph_cut_without_requires_grad_is_named():
    # h.detach() alone: the next stage's input gets no .grad, and backward(None) raises
    assert_fails(
        executor(one_f_one_b, grad_in=False),
        "stage 2's input did not require grad, and then your code raised RuntimeError",
        "h.detach().requires_grad_()",
    )

    def raises(stages, x, y, loss_fn, n_micro):  # inputs that require grad: its own error
        executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        raise RuntimeError("a mistake of its own")

    hint = assert_fails(raises, "RuntimeError: a mistake of its own").hint
    assert "did not require grad" not in hint, hint


# --- the logged stages (checks/_ch09_1f1b_log.py) -------------------------------------------


def retaining(make_orders, loss_only=False):
    """executor's step, with retain_graph=True on every backward (or on the loss's alone)."""
    plain = torch.Tensor.backward

    def step(*args):
        def keep(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
            retain = retain_graph if loss_only and gradient is not None else True
            return plain(self, gradient, retain, create_graph, inputs)

        with mock.patch.object(torch.Tensor, "backward", keep):
            return executor(make_orders)(*args)

    return step


@pytest.mark.parametrize("loss_only", [False, True])
def test_graphs_kept_after_their_backward_are_named(loss_only):
    result = check("09.one_f_one_b", retaining(one_f_one_b, loss_only), quiet=True)
    assert not result.ok
    # every backward kept: the first stage's first graph; the loss's alone: the last stage's
    stage = r"stage [2-4]" if loss_only else "stage 1"
    assert re.search(
        rf"{stage}'s graph of micro-batch 0 still held the activations it saved", result.hint
    ), result.hint
    assert "retain_graph=True" in result.hint and "retain_graph out" in result.hint


def test_kept_saved_tells_a_freed_graph_from_a_kept_one():
    from d2lgpu.checks._ch09_1f1b_log import _kept_saved

    x = torch.randn(3, requires_grad=True)
    assert not _kept_saved(x.sum().grad_fn)  # saves sizes, no tensor
    kept = torch.pow(x, 2)  # saves an exponent (a number), then the input (a tensor)
    assert _kept_saved(kept.grad_fn)
    kept.sum().backward(retain_graph=True)
    assert _kept_saved(kept.grad_fn)
    freed = torch.pow(x, 2)
    freed.sum().backward()
    assert not _kept_saved(freed.grad_fn)


def test_check_freed_names_the_first_kept_graph_and_leaves_an_uncut_pipeline_to_the_orders():
    from types import SimpleNamespace

    from d2lgpu.checks._ch09_1f1b_log import check_freed
    from d2lgpu.checks._util import CheckFailed

    x = torch.randn(3, requires_grad=True)
    freed, kept = torch.pow(x, 2), torch.pow(x, 3)
    freed.sum().backward()
    kept.sum().backward(retain_graph=True)
    first = SimpleNamespace(
        index=0, uncut=False, retained=[], nodes=[(0, freed.grad_fn), (1, None)]
    )
    second = SimpleNamespace(
        index=1, uncut=False, retained=[], nodes=[(0, freed.grad_fn), (2, kept.grad_fn)]
    )
    check_freed([first], "case 1")  # freed, or no node: nothing to name
    with pytest.raises(CheckFailed) as raised:
        check_freed([first, second], "case 1")
    assert str(raised.value) == (  # the whole hint, as the learner reads it
        "(case 1) after its backward, stage 2's graph of micro-batch 2 still held the "
        "activations it saved: that backward ran with retain_graph=True. Without it autograd "
        "frees each micro-batch's activations as soon as its backward has run, which is how "
        "1F1B keeps a stage at min(S - k, M) micro-batches in flight; with it they stay as "
        "long as anything refers to the graph. Leave retain_graph out (each graph is "
        "backwarded once)"
    )
    first.uncut = True  # one graph through every stage: named by the order checks instead
    check_freed([first, second], "case 1")


def test_logged_stages_find_micro_batches_by_value_and_see_only_later_stages_uncut():
    from d2lgpu.checks._ch09_1f1b_log import LoggedStage

    log, xs = [], torch.randn(2, 4, 3).unbind()
    seen = {-1: {0: xs[0], 1: xs[1]}}
    first = LoggedStage(0, nn.Linear(3, 3), log, seen)
    second = LoggedStage(1, nn.Linear(3, 3), log, seen)
    out = first(xs[1] * torch.ones(1, requires_grad=True))  # micro-batch 1, carrying a graph
    second(out.detach().requires_grad_())
    second(first(xs[0]))  # micro-batch 0, its graph left whole
    assert log == [(0, "F", 1), (1, "F", 1), (0, "F", 0), (1, "F", 0)]
    assert not first.uncut and second.uncut  # a first stage's input has no stage before it
    alone = LoggedStage(1, nn.Linear(3, 3), log, {})  # nothing seen yet: its count of forwards
    alone(xs[0]), alone(xs[1])
    assert log[-2:] == [(1, "F", 0), (1, "F", 1)]


def test_gradients_within_the_stated_tolerance_pass():
    # 2e-5 relative: outside torch.allclose's defaults (rtol 1e-5), inside the checker's 1e-4
    def nudged(stages, x, y, loss_fn, n_micro):
        loss = executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        with torch.no_grad():
            for p in (p for s in stages for p in s.parameters()):
                p.grad.mul_(1 + 2e-5)
        return loss

    result = check("09.one_f_one_b", nudged, quiet=True)
    assert result.ok, str(result)


def test_a_stage_that_ran_an_action_twice_or_never_is_told_which():
    from d2lgpu.checks._ch09_1f1b_orders import diagnose as _diagnose

    said = _diagnose(
        0, [("F", 0), ("F", 1), ("B", 0), ("F", 2), ("B", 1), ("F", 3), ("B", 2)], 2, 4
    )
    assert said.startswith("stage 1 of 2 (k = 0) with 4 micro-batches ran F0 F1 B0 F2 B1 F3 B2: it "
                           "never ran B3 (the cool-down: the backwards still owed after the last "
                           "forward): each micro-batch's forward and backward once, on every stage. "
                           "1F1B's order is F0 F1 B0 F2 B1 F3 B2 B3")  # fmt: skip
    said = _diagnose(0, [("F", i) for i in range(4)], 2, 4)  # no gradient ever came back
    assert said == (
        "stage 1 of 2 (k = 0) with 4 micro-batches ran F0 F1 F2 F3: it never ran B0 B1 B2 B3: "
        "each micro-batch's forward and backward once, on every stage. A stage's backward "
        "takes the gradient of the next stage's input: cut with detach() alone, that input's "
        ".grad stays None, and nothing is sent back; cut it with h.detach().requires_grad_() "
        "1F1B's order is F0 F1 B0 F2 B1 F3 B2 B3"
    )
    said = _diagnose(1, [("F", 0), ("F", 0), ("F", 1), ("B", 0), ("B", 1), ("B", 1)], 2, 2)
    assert ": it ran F0 B1 more than once: each" in said  # in the order the stage ran them
    said = _diagnose(1, [("F", 0), ("F", 0), ("B", 0), ("F", 1)], 2, 2)
    assert ": it never ran B1 (the cool-down: the backwards still owed after the last forward); " \
        "it ran F0 more than once: each" in said  # fmt: skip
    said = _diagnose(1, [("F", 0), ("F", 1)], 2, 2)  # the last stage has no next stage
    assert "it never ran B0 B1" in said and "requires_grad_" not in said
    said = _diagnose(1, [("F", 0), ("B", 0), ("F", 1), ("B", 1), ("F", 7)], 2, 2)
    assert ": it ran other actions: each micro-batch's" in said
    said = _diagnose(1, [("F", 0), ("B", 0), ("F", 1), ("B", 1), ("B", 1)], 2, 2)
    assert "it ran B1 more than once: each" in said and "requires_grad_" not in said
    said = _diagnose(1, [("F", 0), ("B", 0), ("F", 1)], 2, 2)  # the last stage: no None to blame
    assert "it never ran B1 (the cool-down" in said and "requires_grad_" not in said
    said = _diagnose(0, [("F", 0), ("B", 1), ("F", 1), ("B", 0)], 2, 2)  # B1 before F1: in turn
    assert "never ran" not in said


# Round 21: a cost the values do not show, named once every case's values have passed, and
# targets that are class indices.


@pytest.mark.parametrize(
    ("answer", "hints"),
    [
        (executor(one_f_one_b, cut_first=True),
         ["stage 1's input, a micro-batch of x, required grad", "the gradient of the data "
          "batch", "the first stage takes its micro-batch as it is"]),
        (executor(one_f_one_b, cut_first="first"),  # micro-batch 0's alone, in the first case
         ["(2 stages, 8 rows in 4 micro-batches) stage 1's input, a micro-batch of x, required "
          "grad", "the gradient of the data "
          "batch", "the first stage takes its micro-batch as it is"]),
        (executor(one_f_one_b, cast=True),
         ["(3 stages, 6 rows in 3 micro-batches) loss_fn got targets of dtype float32, where y "
          "holds class indices (int64)", "Pass each micro-batch's targets as they are"]),
    ],
    ids=["first_input_grad", "first_input_grad_once", "targets_cast"],
)  # fmt: skip
def test_a_gradient_of_the_data_and_cast_targets_are_named(answer, hints):
    hint = assert_fails(answer, *hints).hint
    if "stage 1's input" in hints[0]:  # read whole: its fix ends it
        assert hint.endswith(
            "stage 1's input, a micro-batch of x, required grad (h.detach().requires_grad_() on "
            "every stage, the first too): backward then computes the gradient of the data batch, "
            "an extra product per micro-batch that nothing uses. Cut only between stages: the "
            "first stage takes its micro-batch as it is"
        ), hint


def test_costs_are_named_after_wrong_gradients_of_a_later_case():
    costly_and_wrong = executor(one_f_one_b, cut_first=True, ones_back=True)
    hint = assert_fails(costly_and_wrong, "has a gradient unlike the unsplit model's").hint
    assert "required grad" not in hint, hint


def test_a_checkpointed_stage_recomputed_in_backward_is_not_a_kept_tensor():
    from torch.utils.checkpoint import checkpoint

    class Checkpointed(torch.nn.Module):
        def __init__(self, stage):
            super().__init__()
            self.stage = stage

        def forward(self, h):
            return checkpoint(self.stage, h, use_reentrant=False)

    def step(stages, x, y, loss_fn, n_micro):
        return executor(one_f_one_b)([Checkpointed(s) for s in stages], x, y, loss_fn, n_micro)

    hint = assert_fails(step, "the stages ran [8, 8] forwards").hint
    assert "still held" not in hint, hint


class Running:
    total = torch.zeros(())  # shared by every call: the loss of all steps so far


def class_attribute_total(stages, x, y, loss_fn, n_micro):
    Running.total += executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
    return Running.total.clone()


def test_a_loss_kept_in_a_class_attribute_is_named():
    Running.total = torch.zeros(())
    assert_fails(
        class_attribute_total, "plus the losses of the calls before",
        "a global, a class attribute, a default argument",
    )  # fmt: skip


def test_the_micro_batches_in_flight_are_counted_one_per_forward_and_backward():
    from d2lgpu.checks._ch09_1f1b_orders import in_flight_peak

    assert in_flight_peak([]) == 0
    assert in_flight_peak([("F", 0), ("F", 1), ("B", 0), ("F", 2), ("F", 3)]) == 3
    assert in_flight_peak([("F", 0), ("B", 0)] * 3) == 1


def test_a_loss_is_the_same_to_one_hundred_thousandth_of_itself_or_absolutely_below_one():
    from d2lgpu.checks._ch09_1f1b_cases import same_loss as _same_loss

    assert _same_loss(0.5, torch.tensor(0.5)) is True  # a bool, from a 0-d tensor too
    assert _same_loss(1e-5, 0.0) is True  # at the tolerance: the same
    assert _same_loss(0.5 + 1.5e-5, 0.5) is False  # below 1: absolute 1e-5
    assert _same_loss(300.0 + 2e-3, 300.0) is True  # above 1: relative 1e-5
    assert _same_loss(300.0 + 4e-3, 300.0) is False


def test_a_stage_called_through_its_forward_skips_its_hooks_and_is_named():
    def direct(stages, x, y, loss_fn, n_micro):
        return executor(one_f_one_b)([s.forward for s in stages], x, y, loss_fn, n_micro)

    assert assert_fails(direct).hint == (
        "(2 stages, 8 rows in 4 micro-batches) stage 1's forward was called directly, "
        "stage.forward(h): that skips nn.Module.__call__ and with it every hook on the stage "
        "(forward and backward hooks, and the ones that DDP, FSDP or a profiler register there). "
        "Call the stage itself, stage(h)"
    )


@pytest.mark.parametrize("in_place", [True, "first"])
def test_an_output_cut_in_place_is_named(in_place):
    assert_fails(
        executor(one_f_one_b, in_place=in_place),
        "(2 stages, 8 rows in 4 micro-batches) stage 1's output was cut from its graph in place "
        "(out.detach_())",
    )


def test_a_second_step_on_the_same_stages_shows_what_the_first_kept_on_them():
    def orders_kept_on_the_stages(stages, x, y, loss_fn, n_micro):
        if not hasattr(stages[0], "orders"):  # made once, and used up by the first call
            stages[0].orders = one_f_one_b(len(stages), min(n_micro, len(x)))

        def used_up(n, m):
            orders = [list(o) for o in stages[0].orders]
            for o in stages[0].orders:
                o.clear()
            return orders

        return executor(used_up)(stages, x, y, loss_fn, n_micro)

    result = assert_fails(
        orders_kept_on_the_stages, "(a second step on the same 3 stages, with new data) call 2"
    )
    assert "does your step keep something on the stages or in a global" in result.hint


# The cut between the stages: a copy, or no cut with one micro-batch.


@pytest.mark.parametrize("copy", [True, "first"])  # every micro-batch, or the first alone
def test_a_stage_input_cut_from_a_copy_of_the_output_before_is_named(copy):
    hint = assert_fails(executor(one_f_one_b, copy=copy)).hint
    assert hint == (
        "(2 stages, 8 rows in 4 micro-batches) stage 2's input was a copy of stage 1's output "
        "(h.clone().detach(), or a new tensor), not that output cut from its graph: each "
        "micro-batch in flight then holds its activations twice, the output kept for the "
        "backward and the copy. Cut with h = out.detach().requires_grad_(), which shares "
        "out's memory"
    ), hint


def test_one_micro_batch_run_through_every_stage_uncut_is_named():
    def whole_when_one(stages, x, y, loss_fn, n_micro):
        if min(n_micro, len(x)) > 1:
            return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        loss = loss_fn(nn.Sequential(*stages)(x), y)  # one model, one backward: no cut
        loss.backward()
        return loss.detach()

    hint = assert_fails(whole_when_one).hint
    assert hint == (
        "(3 stages, 4 rows in 1 micro-batch) stage 2 got stage 1's output itself, graph and "
        "all: the graph is not cut between the stages, so the backward is one call through "
        "every stage, and the stages cannot run it as a pipeline (each on its device, when "
        "its turn comes). Cut it for every micro-batch, one micro-batch too: stage k + 1 gets "
        "h.detach().requires_grad_(), and stage k's backward is out.backward(h.grad)"
    ), hint


def test_micro_batches_of_reordered_rows_are_named_not_the_orders():
    reversed_rows = executor(one_f_one_b, split=lambda t, m: micro_batches(t.flip(0), m))
    hint = assert_fails(reversed_rows).hint
    assert hint == (
        "(2 stages, 8 rows in 4 micro-batches) stage 1 got a micro-batch that is not a run of "
        "consecutive rows of x: the rows were reordered or gathered (torch.randperm, x[perm]), "
        "so micro-batch i is not tensor_split's i-th piece, each is a gathered copy of x, and "
        "a random permutation also moves the caller's random state. Micro-batch i must be "
        "rows of x in order, torch.tensor_split(x, M)[i]: no shuffle (the data loader "
        "shuffles, before the step)"
    ), hint


# The gradients the caller gave (shared with 09.pipeline: _ch09_given_grads).


def test_gradients_the_stages_had_scaled_with_the_steps_are_named():
    def sums_then_divided(stages, x, y, loss_fn, n_micro):
        def row_sums(out, target):
            return loss_fn(out, target) * len(target)

        total = executor(one_f_one_b, weight=False)(stages, x, y, row_sums, n_micro)
        with torch.no_grad():
            for p in (p for stage in stages for p in stage.parameters()):
                p.grad.div_(len(x))
        return total / len(x)

    hint = assert_fails(sums_then_divided).hint
    assert hint == (
        "(2 stages, 8 rows in 4 micro-batches) this step's gradients are right, but the "
        "gradients already in .grad before the step were divided by 8 too: each .grad is "
        "0.125 times the caller's plus this step's. Scaling .grad after backward (p.grad /= "
        "len(x), or a multiply) scales the gradients of earlier batches with this one's. "
        "Weight the loss instead: backward each micro-batch's loss times its share of the "
        "rows (len(x_i) / len(x)), and leave .grad alone after it"
    ), hint


def test_gradients_zeroed_then_added_back_are_named_at_the_first_forward():
    def stashed(stages, x, y, loss_fn, n_micro):
        params = [p for stage in stages for p in stage.parameters()]
        kept = [p.grad.clone() for p in params]
        for stage in stages:
            stage.zero_grad()
        loss = executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)
        with torch.no_grad():
            for p, g in zip(params, kept, strict=True):
                p.grad = g if p.grad is None else p.grad + g
        return loss

    hint = assert_fails(stashed).hint
    assert hint == (
        "(2 stages, 8 rows in 4 micro-batches) when stage 1's first forward ran, its "
        "parameters' .grad were None (zero_grad() sets them so), not the gradients the caller "
        "gave the step (the checker gave them some): your step zeroed the gradients, which the "
        "caller does, not the step. Putting a copy aside and adding it back at the end gives "
        "the right sums, but holds every gradient twice while the step runs. Leave .grad as "
        "it is: backward adds this step's gradients to it"
    ), hint


def test_start_scale_finds_one_factor_for_every_gradient_or_none():
    from d2lgpu.checks._ch09_given_grads import start_scale

    start, want = [torch.ones(2), torch.full((3,), 2.0)], [torch.zeros(2), torch.ones(3)]

    def scaled(c):
        return [s * c + w for s, w in zip(start, want, strict=True)]

    assert start_scale(scaled(0.25), want, start) == 0.25
    assert start_scale(scaled(1.0), want, start) is None  # c = 1: the caller's kept
    assert start_scale(list(want), want, start) is None  # c = 0: zeroed, named elsewhere
    assert start_scale([start[0] * 0.5, start[1] * 2 + want[1]], want, start) is None
    assert start_scale([None, want[1]], want, start) is None
    assert start_scale(list(want), want, [torch.zeros(2), torch.zeros(3)]) is None


def test_gradients_the_stages_had_multiplied_or_divided_are_named_either_way():
    from d2lgpu.checks._ch09_given_grads import check_not_scaled
    from d2lgpu.checks._util import CheckFailed

    start, want = [torch.ones(2)], [torch.full((2,), 3.0)]
    for c, how in ((1.5, "multiplied by 1.5"), (3.0, "multiplied by 3"), (0.5, "divided by 2")):
        with pytest.raises(CheckFailed) as raised:
            check_not_scaled([start[0] * c + want[0]], want, start, "(a case)")
        assert str(raised.value).startswith(
            "(a case) this step's gradients are right, but the gradients already in .grad "
            f"before the step were {how} too: each .grad is {c:.4g} times the caller's plus "
            "this step's."
        )
    check_not_scaled([start[0] + want[0]], want, start, "(a case)")  # the caller's kept


def test_a_backward_run_before_the_next_stage_sent_its_gradient_is_named():
    from d2lgpu.checks._ch09_1f1b_orders import early_backward

    # one backward through every stage (an uncut graph): the last stage's reached first
    fine = [(0, "F", 0), (1, "F", 0), (1, "B", 0), (0, "B", 0), (0, "F", 1), (1, "F", 1)]
    assert early_backward(fine + [(1, "B", 1), (0, "B", 1)], 2, 2, "w") is None
    assert early_backward(fine, 2, 2, "w") is None  # a backward never run: not this rule
    early = fine + [(1, "F", 2), (2, "F", 2), (1, "B", 1), (0, "B", 1), (2, "B", 1)]
    assert early_backward(early, 3, 3, "3 stages") == (
        "(3 stages) stage 2's backward of micro-batch 1 ran before stage 3's: the gradient it "
        "needs, of stage 3's input, did not exist yet, so it ran on something else (zeros, or "
        "an earlier .grad). In one process the stages' orders interleave: run a stage's "
        "backward of micro-batch i only once the next stage's backward of i has filled that "
        "gradient"
    )


@pytest.mark.parametrize(
    ("forwards", "m", "rows", "n_micro", "named"),
    [
        ([3, 3], 4, 5, 4, ": 3 is what x.chunk(4) gives for 5 rows"),
        ([4, 4, 4], 2, 2, 4, ": 2 of the 4 micro-batches asked for are empty (2 rows)"),
        ([8, 8], 4, 8, 4, ": every micro-batch went through each stage twice"),
        ([4, 5], 4, 8, 4, ": stage 2 ran 1 forward(s) more than there are micro-batches"),
        ([4, 3, 4], 4, 8, 4, ": 1 micro-batch(es) never went through stage 2"),
        ([2, 2], 4, 8, 4, ": x.split(4) cuts pieces of 4 rows, 2 of them here"),
        ([1], 3, 5, 3, ": the whole batch went through each stage in one forward"),
        ([1, 1], 2, 8, 2, ": the whole batch went through each stage in one forward"),
        # rows not a multiple of n_micro, one stage: x.split's pieces rounded up
        ([2], 4, 6, 4, ": x.split(4) cuts pieces of 4 rows, 2 of them here"),
    ],
)
def test_a_wrong_number_of_forwards_is_named_by_its_likely_cause(forwards, m, rows, n_micro, named):
    from d2lgpu.checks._ch09_1f1b_orders import forwards_named

    assert forwards_named(forwards, m, rows, n_micro).startswith(named)


def test_a_notebooks_namespace_may_hold_the_order_helpers_for_a_comparison():
    # a notebook's step lives in __main__, where a cell may have imported the helpers to
    # compare orders: holding them is not using them (a test module's too, "test_...")
    from d2lgpu.pipeline import one_f_one_b_order

    namespace = {"__name__": "__main__", "one_f_one_b_order": one_f_one_b_order}
    namespace["run"] = executor(one_f_one_b)
    exec("def step(stages, x, y, loss_fn, n_micro):\n    return run(stages, x, y, loss_fn, n_micro)\n", namespace)  # fmt: skip
    grading_helpers.assert_passes("09.one_f_one_b", namespace["step"])
    namespace["__name__"] = "learner_module"  # a module of the learner's own: named
    assert "your step's module holds its one_f_one_b_order" in assert_fails(namespace["step"]).hint


def test_an_error_with_as_many_micro_batches_as_stages_less_one_is_not_blamed_on_the_warm_up():
    def rows_each(t, n):  # rows per micro-batch, 0 where the rows are fewer than n
        return torch.tensor_split(t, n) if len(t) >= n else t.split(len(t) // n)

    hint = assert_fails(executor(one_f_one_b, split=rows_each), "your code raised").hint
    assert hint.startswith(
        "(3 stages, 2 rows in 4 micro-batches) your code raised RuntimeError: "
    ), hint  # 2 micro-batches for 3 stages: a warm-up of S - k - 1 = 2 forwards fits
    assert "fewer micro-batches" not in hint and hint.endswith(
        ", though the calls before this one, with other stages or micro-batches, ran: Does it "
        "keep something from an earlier call (a cache, a global, a default argument)?"
    ), hint


def test_warm_ups_kept_from_an_earlier_call_of_as_many_stages_are_named_as_kept():
    cache = {}

    def kept(s, k, m):  # the first call of s stages decides every later one's warm-ups
        return min(cache.setdefault(s, [min(s - j - 1, m) for j in range(s)])[k], m)

    hint = assert_fails(executor(functools.partial(one_f_one_b, warm_up=kept))).hint
    assert hint.startswith("(3 stages, 7 rows in 3 micro-batches) stage 1 of 3 (k = 0) "), hint
    assert hint.endswith(
        "That is 1F1B's order with the warm-up of an earlier call of 3 stages and 1 "
        "micro-batches, 1 forwards: does your step keep warm-ups or orders from an earlier call "
        "(a cache keyed by the number of stages)? Work them out in every call, from this call's "
        "S and M"
    ), hint
    # a warm-up too short in every call is no warm-up kept
    short = assert_fails(executor(functools.partial(one_f_one_b, warm_up=lambda s, k, m: 0)))
    assert "an earlier call" not in short.hint


def test_a_warm_up_counted_from_n_micro_where_the_rows_are_fewer_drops_a_backward():
    def step(stages, x, y, loss_fn, n_micro):  # each stage's warm-up min(S - k - 1, n_micro)
        def orders(n, m):
            made = []
            for k in range(n):
                warm = min(n - k - 1, n_micro)
                fwd, bwd = [("F", i) for i in range(m)], [("B", i) for i in range(m)]
                steady = [a for pair in zip(fwd[warm:], bwd, strict=False) for a in pair]
                made.append(fwd[:warm] + steady + bwd[m - warm :])
            return made

        return executor(orders)(stages, x, y, loss_fn, n_micro)

    hint = assert_fails(step).hint
    assert hint.startswith(
        "(4 stages, 2 rows in 4 micro-batches) stage 1 of 4 (k = 0) with 2 micro-batches ran "
        "F0 F1 B1: it never ran B0"
    ), hint


def test_a_step_that_adds_into_a_grad_it_takes_for_granted_is_named_where_grad_is_none():
    def touching(stages, x, y, loss_fn, n_micro):  # reads every .grad as a tensor
        for p in (p for s in stages for p in s.parameters()):
            p.grad.mul_(1)
        return executor(one_f_one_b)(stages, x, y, loss_fn, n_micro)

    hint = assert_fails(touching).hint
    assert hint.startswith(
        "(3 stages whose parameters' .grad are None, as zero_grad() leaves them before a step) "
        "your step raised AttributeError: 'NoneType' object has no attribute 'mul_' (in your "
        "function touching, line "
    ), hint
    assert hint.endswith(
        "backward fills a .grad that is None, and adds to one that is not. Code that adds into "
        "p.grad itself must start it where it is None (p.grad = g), or call backward, which does"
    ), hint
    # the right step starts from None there too, and accumulates over the two calls
    grading_helpers.assert_passes("09.one_f_one_b", executor(one_f_one_b))


def test_micro_batches_kept_for_a_batch_of_the_same_shapes_are_named_as_kept():
    cache, calls = {}, []

    def kept(t, n):  # x's, then y's, keyed by shape: a new batch of that shape gets old rows
        calls.append(t)
        return cache.setdefault((len(calls) % 2, t.shape, n), micro_batches(t, n))

    hint = assert_fails(executor(one_f_one_b, split=kept)).hint
    assert "and a case before with a batch of the same shapes (" in hint, hint
    assert hint.endswith(
        ") passed: does your step keep something from an earlier call (micro-batches, orders or "
        "losses in a cache keyed by shapes, a global, a default argument)? Split this call's x "
        "and y"
    ), hint


def test_kept_warm_up_names_only_the_warm_up_an_earlier_call_would_leave():
    from d2lgpu.checks._ch09_1f1b_orders import kept_warm_up

    def _order_of(warm, m):  # a stage's 1F1B order with a warm-up of warm forwards
        return one_f_one_b(warm + 1, m)[0]

    assert _order_of(3, 8) == one_f_one_b_order(4, 8)[0]  # 1F1B's own, for S=4, k=0
    said = kept_warm_up(0, _order_of(2, 8), 4, 8, [2])  # kept from a call of 2 micro-batches
    assert said is not None and "earlier call of 4 stages and 2 micro-batches, 2 forwards" in said
    said = kept_warm_up(1, _order_of(1, 8), 4, 8, [4, 1])  # stage 2, from a call of 1
    assert said is not None and "4 stages and 1 micro-batches, 1 forwards" in said
    said = kept_warm_up(0, _order_of(1, 2), 4, 2, [1])  # fewer micro-batches now than warm-up
    assert said is not None and "1 micro-batches, 1 forwards" in said
    for k, got, m, earlier in (
        (0, _order_of(3, 8), 8, [8]),  # the right order: nothing kept
        (0, _order_of(2, 8), 8, [8]),  # too short, but no earlier call left it so
        (0, _order_of(5, 8), 8, [8]),  # too long: no warm-up of S - k - 1 is that long
        (1, _order_of(8, 8), 8, [8]),  # GPipe's order: every forward first
        (1, _order_of(3, 8), 8, [8]),
        (0, _order_of(0, 8), 8, [2]),  # wrong, and not the earlier call's warm-up either
        (0, _order_of(1, 1), 1, [2]),  # one micro-batch: its warm-up is 1 whatever came before
    ):
        assert kept_warm_up(k, got, 4, m, earlier) is None, (k, m, earlier)
