"""Checker ``03.device_bug``: fix a training step with a device mismatch.

The answer is the fixed ``train_step``. The checker runs it with the model on
the ``meta`` device, which computes nothing, so the bug shows on any machine:
most operations refuse a CPU operand next to a meta one, as they would next to
a GPU one. Some do not (``meta @ cpu`` passes, chapter 2), so the checker also
watches every operation and fails a step in which one got both. Then it runs
three real steps on ``try_gpu()`` against a reference.
"""

from __future__ import annotations

import torch

from ._ch03_meta_watch import BY_NAME, Origins, mismatch_hint, mixed_hint, moved_elsewhere
from ._ch03_networks import CLASS_WEIGHTS, defaults_kept, make_net, same_params, seeded_net
from ._ch03_step_rules import batch as _batch
from ._ch03_step_rules import check_large_gradients, kept_graph, reference_train_step, rng_kept
from ._ch03_step_rules import waits_for_the_gpu as _waits_for_the_gpu
from ._kit_calls import closure_first
from ._util import CheckFailed, one_cpu_thread, raised_where

__all__ = ["check_device_bug", "reference_train_step"]


def _on_meta(step, data_on_meta: bool, refilled: bool = False):
    """Run ``step`` with the model on meta; ``refilled``: again, on the same batch tensors
    holding new values, which a step must read again."""
    net = make_net().to("meta")
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    X, y = _batch(0)
    if data_on_meta:
        X, y = X.to("meta"), y.to("meta")
    loss, _ = _run_on_meta(step, net, X, y, opt)
    if refilled:
        X_new, y_new = _batch(5)
        X.copy_(X_new)  # a buffer refilled, as a loader may
        y.copy_(y_new)
        _, origins = _run_on_meta(step, net, X, y, opt)
        if not {"the batch X", "the batch y"} <= origins.used:
            raise CheckFailed(
                "called again with the same batch tensors holding new values, the step never "
                "read X or y: it reused what it moved on an earlier call (a cache keyed by "
                "id(X) or by the tensor), which trains on a stale batch when a buffer is "
                "refilled or a new batch gets a freed one's id. Move the batch it is given, "
                "X.to(device), on every call"
            )
    return loss


def _run_on_meta(step, net, X, y, opt) -> tuple[torch.Tensor, Origins]:
    origins = Origins([(X, "the batch X"), (y, "the batch y")])
    # The order of the model's forwards and the optimizer's steps: "f" and "s"
    order: list[str] = []
    hook = net.register_forward_pre_hook(lambda module, args: order.append("f"))
    stepped = opt.step

    def step_noted(*args, **kwargs):  # noted once done: a closure's forward runs inside
        done = stepped(*args, **kwargs)
        order.append("s")
        return done

    opt.step = step_noted
    try:
        with defaults_kept("the step"), origins:
            loss = step(net, X, y, opt, torch.device("meta"))
    except NotImplementedError as error:
        if "meta" not in str(error).lower():
            raise  # the learner's stub: not attempted yet
        if origins.cuda_by_name:  # with a GPU, copying a meta tensor to it fails this way
            raise CheckFailed(BY_NAME) from None
        raise moved_elsewhere(origins) or CheckFailed(
            "the step copies a tensor from the model's device to the CPU (.cpu(), "
            f".to('cpu'), .numpy(), .tolist(), or the model itself){raised_where(error)}: keep the model "
            "on its device and move the data to it"
        ) from None
    except RuntimeError as error:
        hint = mismatch_hint(error, origins)
        if hint is None:
            raise
        raise hint from None
    finally:
        hook.remove()
        del opt.step  # the optimizer's own method again
    if origins.cuda_by_name:  # ran, on a GPU machine, but not on the device it was given
        raise CheckFailed(BY_NAME)
    if origins.mixed is not None:
        # An operation that let a CPU operand through on meta (matmul does): a GPU would not.
        raise CheckFailed(
            mixed_hint(origins).hint
            + "; the meta device let it through, a GPU would raise a device-mismatch error"
        )
    moved = {str(p.device) for p in net.parameters()} - {"meta"}
    if moved:
        raise CheckFailed(
            f"the step moved the model to {', '.join(sorted(moved))}: keep the model where it "
            "is and move the data to it"
        )
    if not isinstance(loss, torch.Tensor):
        raise CheckFailed(
            f"train_step returned {type(loss).__name__ if loss is not None else 'None'}: "
            "return the loss as a tensor, loss.detach(), as the given step does"
        )
    if "sf" in "".join(order):
        raise CheckFailed(
            "the step runs the model forward again after opt.step(): a second forward, on the "
            "updated weights, whose loss is not the one the step was taken on. Return "
            "loss.detach() of the loss that loss.backward() was called on, as the given step "
            "does (one forward per step)"
        )
    if order.count("f") > 1:
        times = {2: "twice", 3: "three times"}.get(order.count("f"), f"{order.count('f')} times")
        raise CheckFailed(
            f"the step runs the model forward {times}: one forward per step, as the given step "
            "does. A second one (for accuracy, say) doubles the cost of the forward pass; "
            "compute what else you need from the logits of the one forward "
            "(logits.detach().argmax(dim=1))"
        )
    return loss, origins


def _record_steps(opt) -> list[bool]:
    """Wrap ``opt.step``: the returned list gets, per call, whether any gradient was non-zero."""
    stepped_with: list[bool] = []
    step = opt.step

    def record():  # before each step, after a closure given to it made the gradients
        grads = [p.grad for group in opt.param_groups for p in group["params"]]
        stepped_with.append(any(g is not None and bool(g.any()) for g in grads))

    opt.step = closure_first(step, record)
    return stepped_with


def check_device_bug(answer, passed):
    """The fixed ``train_step``: no CPU leftovers (meta device), then two real steps."""
    if not callable(answer):
        raise CheckFailed("pass the fixed function: check('03.device_bug', train_step)")
    one_cpu_thread(_check_device_bug)(answer, passed)


_KEPT_FROM_META = (
    "a tensor on the meta device reached the step's run on a real device: the checker's "
    "first calls ran your step with the model on the meta device, and your step kept a "
    "tensor it made then (in a global, an attribute or a default argument) and used it "
    "again. Make the step's tensors in every call, on the device it is given (a list of "
    "Python numbers, as CLASS_WEIGHTS, can be kept)"
)


def _batch_kept(given, X, y, device) -> None:
    """The step trains on the batch it is given and leaves the caller's tensors as they were."""
    changed = [n for n, a, b in zip("Xy", given, (X, y), strict=True) if not torch.equal(a, b)]
    if changed:
        where = (
            f" (on {device}, {changed[0]}.to(device) returns {changed[0]} itself, so an "
            "in-place operation on it writes into the caller's tensor)"
            if X.device == torch.device(device)
            else ""
        )
        raise CheckFailed(
            f"the step changed the batch {changed[0]} it was given, in place{where}: the "
            "caller's batch is not the step's to change, and the reference step trains on it "
            "as it is. Only change where tensors live; keep the step's computation as given"
        )


_ONE = (
    "on a batch of one example (the third real step), your code raised {}{}: a step takes a "
    "batch of any size, one example too (squeeze() drops a batch of one's batch dimension; "
    "view(-1) or flatten() keep it)"
)


def _check_device_bug(answer, passed):
    from ..devices import try_gpu

    _on_meta(answer, data_on_meta=True)
    passed.append(
        "tensors made inside the step live on the model's device (checked with the model on "
        "the meta device, every operation watched for a CPU operand)"
    )
    _on_meta(answer, data_on_meta=False, refilled=True)
    _waits_for_the_gpu(answer)
    passed.append("a batch that arrives on the CPU is moved to the model's device, every call")
    passed.append("the model stays on its device, and runs forward once per step")
    passed.append("the step makes the host wait for nothing (torch.cuda.synchronize, .item())")

    device = try_gpu()
    variants = {
        "": {},
        "the class weights are missing: keep weight=class_weights in F.cross_entropy": {
            "weighted": False
        },
        "the gradients of the previous step were not cleared: keep opt.zero_grad() before "
        "loss.backward()": {"zero_grad": False},
        "the gradients were clipped (clip_grad_norm_): keep the step's computation as "
        "given (no clipping or rescaling of the gradients); only change where tensors live": {
            "clip": 1.0
        },
        "the loss divides the weighted losses by the batch size, not by the sum of the "
        "targets' class weights, as (w[y] * losses).mean() or one-hot probability targets "
        "with weight= do: pass y, the class indices, to F.cross_entropy(..., "
        "weight=class_weights), as the given step does": {"one_hot": True},
    }
    nets = {k: seeded_net(4).to(device) for k in [*variants, "answer"]}
    opts = {k: torch.optim.SGD(n.parameters(), lr=0.05, momentum=0.9) for k, n in nets.items()}
    stepped_with = _record_steps(opts["answer"])
    losses: list[tuple[torch.Tensor, torch.Tensor]] = []  # (the answer's, the reference's)
    for seed in (1, 2, 3):
        X, y = _batch(seed, 16 if seed < 3 else 1)  # the last batch of one example
        for key, options in variants.items():
            loss = reference_train_step(nets[key], X, y, opts[key], device, **options)
            if not key:
                losses.append((loss, loss))
        given = X.clone(), y.clone()
        try:
            with defaults_kept("the step"), rng_kept(), kept_graph() as graphs:
                got = answer(nets["answer"], X, y, opts["answer"], device)
        except (RuntimeError, ValueError, IndexError) as error:
            if "device meta" in str(error):  # the first calls' meta tensors, kept and used again
                raise CheckFailed(f"{_KEPT_FROM_META} (PyTorch said: {error})") from None
            if len(y) > 1:
                raise
            said = f"{type(error).__name__}: {error}"
            raise CheckFailed(_ONE.format(said, raised_where(error))) from None
        _batch_kept(given, X, y, device)
        if not isinstance(got, torch.Tensor) or got.dim() != 0:
            raise CheckFailed(
                f"train_step returned {type(got).__name__}"
                + (f" of shape {tuple(got.shape)}" if isinstance(got, torch.Tensor) else "")
                + ": return the loss as a 0-d tensor, loss.detach()"
            )
        if got.requires_grad:
            raise CheckFailed(
                "train_step returned the loss still attached to the autograd graph "
                "(requires_grad=True): every loss the caller keeps (the notebook stacks twenty) "
                "keeps its step's whole graph alive, activations included. Return "
                "loss.detach(), as the given step does"
            )
        losses[-1] = (got, losses[-1][1])
        graphs.check(got)
    mine, given = nets["answer"].state_dict().keys(), nets[""].state_dict().keys()
    if mine != given:
        added, lost = sorted(mine - given), sorted(given - mine)
        change = (f"gained {', '.join(added)}" if added else "") + (
            f"{' and ' * bool(added)}lost {', '.join(lost)}" if lost else "")  # fmt: skip
        raise CheckFailed(
            f"train_step changed the caller's model: its state_dict {change} (register_buffer, "
            "or a Parameter or module set as an attribute). Every checkpoint of the model "
            "would hold it, and load_state_dict into a fresh model would fail. Keep the class "
            "weights in a tensor of the step's own, made on the device"
        )
    if not same_params(nets["answer"], nets[""], close=True):
        if not stepped_with:
            raise CheckFailed(
                "after three steps the parameters differ from the reference: opt.step() was "
                "never called on the optimizer you are given. Keep opt.step() after "
                "loss.backward(), with the opt passed in (a new optimizer made inside the "
                "step starts from scratch every time)"
            )
        grads = [p.grad for p in nets["answer"].parameters() if p.grad is not None]
        if not any(stepped_with) and any(bool(g.any()) for g in grads):
            raise CheckFailed(
                "after three steps the parameters differ from the reference: every "
                "opt.step() found the gradients zero or None, and loss.backward() filled them "
                "after it: opt.step() was called before loss.backward(), so each step used no "
                "gradients and the next opt.zero_grad() cleared the ones computed. Keep the "
                "order opt.zero_grad(), loss.backward(), opt.step()"
            )
        if not any(stepped_with):
            raise CheckFailed(
                "after three steps the parameters differ from the reference: every "
                "opt.step() found the gradients zero or None, so opt.zero_grad() ran between "
                "loss.backward() and opt.step() and cleared what the step needed. Call "
                "opt.zero_grad() before loss.backward() (or after opt.step())"
            )
        hint = next(
            (h for h in variants if h and same_params(nets["answer"], nets[h], close=True)),
            "use the optimizer you are given (opt), and keep the class weights "
            f"{list(CLASS_WEIGHTS)}, the cross-entropy loss, opt.zero_grad(), loss.backward() "
            "and opt.step(); only change where tensors live",
        )
        raise CheckFailed(f"after three steps the parameters differ from the reference: {hint}")
    got, wanted = (torch.stack(t).cpu().flatten() for t in zip(*losses, strict=True))
    if not torch.allclose(got, wanted, rtol=1e-4, atol=1e-6):
        raise CheckFailed(
            f"the parameters match the reference, but train_step returned the losses "
            f"{[round(v, 4) for v in got.tolist()]}, where the steps were taken on "
            f"{[round(v, 4) for v in wanted.tolist()]}: return loss.detach() of the loss that "
            "loss.backward() was called on, not one recomputed after opt.step() (the loss of "
            "the updated weights, at the cost of a second forward)"
        )
    check_large_gradients(answer, device)
    passed.append(
        "three steps on try_gpu() match the reference step (with the optimizer given, "
        "SGD with momentum, and a last batch of one example)"
    )
