"""The parts of the 03.device_bug checker: the watch that labels tensors by where they came
from, the hint each kind of error gets (held word for word), and the real steps' verdicts.

tests/test_checks_ch03.py grades whole answers; here each part is called on its own.
"""

from types import SimpleNamespace

import pytest
import torch
import torch.nn.functional as F

from d2lgpu.checks import _ch03_meta_watch as watch
from d2lgpu.checks import ch03_device_bug as parts
from d2lgpu.checks._util import CheckFailed

META = torch.device("meta")
WEIGHTS = [1.0, 2.0, 1.0]


def _origins(mixed=None, moved_to=None, cuda_by_name=False, was_moved=False):
    return SimpleNamespace(
        mixed=mixed, moved_to=moved_to, cuda_by_name=cuda_by_name, mixed_was_moved=was_moved
    )


def _hint(fn, *args) -> str:
    with pytest.raises(CheckFailed) as failed:
        fn(*args)
    return str(failed.value)


def _step(net, X, y, opt, device, weights=None, reduction="mean"):
    X, y = X.to(device), y.to(device)
    w = torch.tensor(WEIGHTS, device=device) if weights is None else weights
    loss = F.cross_entropy(net(X), y, weight=w, reduction=reduction)
    opt.zero_grad()
    loss.mean().backward()
    opt.step()
    return loss.detach()


# --- the hints ---------------------------------------------------------------------------


def test_the_mixed_hint_says_a_to_whose_result_was_not_kept_returns_a_copy():
    batch = _origins(("linear", "the batch y", "the CPU"), was_moved=True)
    assert watch.mixed_hint(batch, " (said)").hint == (
        "the batch y is still on the CPU when linear uses it with the model on the device: "
        "y.to(device) was called, but to() returns a copy on the device and leaves the tensor it "
        "is called on where it was: assign the result (y = y.to(device)) (said)"
    )
    made = _origins(("mul", "torch.tensor(...) made in your step with device=cpu", "the CPU"))
    made.mixed_was_moved = True
    assert watch.mixed_hint(made).hint == (
        "torch.tensor(...) made in your step with device=cpu stays on the CPU while the model "
        "is on the device (mul got both): t.to(device) was called, but to() returns a copy on "
        "the device and leaves the tensor it is called on where it was: assign the result "
        "(t = t.to(device))"
    )


def test_the_watch_notes_a_to_whose_source_is_the_cpu_operand_of_a_mix():
    X = torch.ones(2, 4)
    with watch.Origins([(X, "the batch X")]) as origins:
        X.to(META)  # the copy is not kept
        torch.ones(3, 2, device=META) @ X  # matmul lets a CPU operand through on meta
    assert origins.mixed is not None and origins.mixed_was_moved
    Y = torch.ones(2, 4)
    with watch.Origins([(Y, "the batch X")]) as origins:
        torch.ones(3, 2, device=META) @ Y
    assert origins.mixed is not None and not origins.mixed_was_moved


def test_the_mixed_hint_names_the_batch_a_tensor_made_in_the_step_or_any_tensor():
    batch = watch.mixed_hint(_origins(("linear", "the batch X", "the CPU")), " (said)")
    assert batch.hint == (
        "the batch X is still on the CPU when linear uses it with the model on the device: move "
        "X and y to device at the start of the step, with to() (said)"
    )
    elsewhere = watch.mixed_hint(_origins(("linear", "the batch y", "cuda:1")))
    assert elsewhere.hint == (
        "the batch y is on cuda:1 when linear uses it with the model on the device: move X and "
        "y to device at the start of the step, with to()"
    )
    made = "torch.tensor(...) made in your step with device=cpu"
    assert watch.mixed_hint(_origins(("mul", made, "the CPU"))).hint == (
        "torch.tensor(...) made in your step with device=cpu stays on the CPU while the model "
        "is on the device (mul got both): it was made with device=cpu: pass the device the step "
        "is given (X.device is the CPU until X is moved)"
    )
    assert watch.mixed_hint(_origins()).hint == (
        "a CPU tensor stays on the CPU while the model is on the device (an operation got "
        "both): create it on the device (the device= argument of the function that makes it)"
    )


def test_each_error_of_the_step_on_meta_gets_its_hint_or_none():
    on_the_host = (
        "the step reads a value on the host (.item(), float(), bool()): return the loss tensor "
        "(loss.detach()) and let the caller read it when needed; on a GPU every such read "
        "waits for the device"
    )
    for message in (
        "Tensor.item() cannot be called on meta tensors",
        "Could not guard on data-dependent expression",
    ):
        assert watch.mismatch_hint(RuntimeError(message), _origins()).hint == on_the_host
    for message in ("Found no NVIDIA driver on your system", "Torch not compiled with CUDA"):
        assert watch.mismatch_hint(RuntimeError(message), _origins()).hint == watch.BY_NAME
    assert watch.BY_NAME == (
        "the step uses the GPU by name (.cuda(), device='cuda'), which fails where there is "
        "none and ignores the device it is given: use .to(device)"
    )
    said = "Tensor on device cpu is not on the expected device meta!"
    by_name = _origins(("mul", "the batch X", "the CPU"), cuda_by_name=True)
    assert watch.mismatch_hint(RuntimeError(said), by_name).hint == watch.BY_NAME
    # cuda in the message, but not about a missing driver: not a GPU named
    for message in ("CUDA error: out of memory", "the driver said no", "compiled graph"):
        assert watch.mismatch_hint(RuntimeError(message), _origins()) is None
    assert watch.mismatch_hint(RuntimeError("mat1 and mat2 shapes"), _origins()) is None
    moved = watch.mismatch_hint(RuntimeError(said), _origins(moved_to="cpu"))
    assert moved.hint == (
        "the step moves tensors to cpu (.to()), not to the device it is given: use .to(device) "
        "with the argument device; a device chosen inside the step (torch.cuda.is_available(), "
        "'cpu', X.device before X is moved) ignores it"
    )
    mixed = _origins(("linear", "the batch X", "the CPU"))
    on_a_gpu = "Expected all tensors to be on the same device, but found at least two devices"
    for message in (said, on_a_gpu):
        assert watch.mismatch_hint(RuntimeError(message), mixed).hint == (
            watch.mixed_hint(mixed, f" (PyTorch said: {message})").hint
        )


# --- the watch ---------------------------------------------------------------------------


def test_the_watch_labels_what_comes_from_the_batch_and_what_the_step_makes():
    X = torch.randn(4, 2)
    keep = torch.ones(3)
    with watch.Origins([(X, "the batch X")]) as origins:
        assert origins.label(X) == "the batch X"
        doubled = X * 2
        assert origins.label(doubled) == "the batch X"
        made = torch.zeros(3)
        assert origins.label(made) == "torch.zeros(...) made in your step without device="
        made_cpu = torch.ones(3, device="cpu")
        assert origins.label(made_cpu) == "torch.ones(...) made in your step with device=cpu"
        made_meta = torch.full((3,), 2.0, device=META)
        assert origins.label(made_meta) == "torch.full(...) made in your step"
        like = torch.zeros_like(keep)  # not a factory from nothing: no label
        assert origins.label(like) is None
        assert origins.label(keep) is None
    assert origins.mixed is None and origins.moved_to is None and origins.cuda_by_name is False


def test_the_watch_notes_the_first_operation_that_mixes_meta_and_another_device():
    X = torch.randn(4, 3)
    w = torch.randn(3, 3, device=META)
    with watch.Origins([(X, "the batch X")]) as origins:
        w @ torch.eye(3)
        w @ X.t()
    assert origins.mixed == (
        "matmul",
        "torch.eye(...) made in your step without device=",
        "the CPU",
    )
    with watch.Origins([(X, "the batch X")]) as origins:
        torch.add(w[0], torch.tensor(1.0))  # a 0-d CPU tensor is a number: a GPU takes it too
        assert origins.mixed is None
        torch.matmul(X, w)
    assert origins.mixed == ("matmul", "the batch X", "the CPU")
    unnamed = torch.randn(3, 2)
    with watch.Origins([]) as origins:
        w @ unnamed
    assert origins.mixed == ("matmul", "a tensor on the CPU", "the CPU")


class _OnAnotherGpu(torch.Tensor):
    """A tensor that says it is on cuda:1, as one left on a second GPU would."""

    @property
    def device(self):
        return torch.device("cuda", 1)


def test_the_watch_names_the_other_device_and_looks_inside_lists():
    w = torch.randn(3, device=META)
    elsewhere = torch.Tensor._make_subclass(_OnAnotherGpu, torch.randn(3))
    with watch.Origins([]) as origins, pytest.raises(RuntimeError, match="expected device"):
        torch.add(w, elsewhere)
    assert origins.mixed == ("add", "a tensor on cuda:1", "cuda:1")
    X = torch.randn(3)
    with watch.Origins([(X, "the batch X")]) as origins, pytest.raises(RuntimeError):
        torch.cat([w, X])  # the tensors inside a list are operands too
    assert origins.mixed == ("cat", "the batch X", "the CPU")
    with watch.Origins([(X, "the batch X")]) as origins:
        assert origins.label(torch.as_tensor(X)) == "the batch X"  # not made: passed along
        assert origins.label(torch.randn(2)) == "torch.randn(...) made in your step without device="
        assert (
            origins.label(torch.randint(3, (2,), device=META))
            == "torch.randint(...) made in your step"
        )


def test_the_watch_lets_copies_into_a_device_tensor_through():
    cpu = torch.randn(3)
    with watch.Origins([]) as origins:
        on_meta = torch.empty(3, device=META)
        on_meta.copy_(cpu)
        on_meta[:] = cpu
    assert origins.mixed is None
    with watch.Origins([]) as origins, pytest.raises(RuntimeError, match="expected device"):
        torch.add(torch.empty(3, device=META), cpu)  # not a copy: both operands are read
    assert origins.mixed == ("add", "a tensor on the CPU", "the CPU")


def test_the_watch_notes_a_gpu_by_name_and_the_first_move_elsewhere():
    X = torch.randn(2)
    param = torch.nn.Parameter(torch.randn(2))
    with watch.Origins([]) as origins:
        X.to(torch.float64)  # a dtype: no device named
        param.to("cpu")  # the model moving: its own hint names it
        X.to(META)
        assert origins.moved_to is None
        X.to("cpu")
        X.to(device=torch.device("meta"))
        X.to(torch.empty(1, device=META))
        assert origins.moved_to == "cpu"
        X.to(torch.empty(1, device="cpu"))
    assert origins.moved_to == "cpu" and not origins.cuda_by_name
    for arguments in (("cuda",), (torch.device("cuda", 0),), ("cuda:1",)):
        with watch.Origins([]) as origins:
            try:
                torch.ones(1).to(*arguments)
            except (AssertionError, RuntimeError):  # no CUDA on this machine
                pass
        assert origins.cuda_by_name, arguments
    with watch.Origins([]) as origins:
        try:
            torch.ones(1).cuda()
        except (AssertionError, RuntimeError):
            pass
    assert origins.cuda_by_name
    assert not watch.names_cuda("cpu") and not watch.names_cuda(torch.device("cpu"))
    assert not watch.names_cuda(3)


def test_a_label_is_not_given_to_a_new_tensor_at_a_dead_ones_address():
    X = torch.randn(2)
    origins = watch.Origins([(X, "the batch X")])
    stand_in = torch.randn(2)
    origins._labels[id(stand_in)] = (lambda: None, "the batch y")  # its tensor is gone
    assert origins.label(stand_in) is None and origins.label(X) == "the batch X"


def test_the_device_a_move_names():
    assert watch.target_device([torch.empty(1, device=META)]) == META
    assert watch.target_device([torch.device("cpu")]) == torch.device("cpu")
    assert watch.target_device(["not a device", "cuda:1"]) == torch.device("cuda", 1)
    assert watch.target_device([torch.float16, None, 3]) is None
    assert watch.made_on({}) == " without device="
    assert watch.made_on({"device": "cpu"}) == " with device=cpu"
    assert watch.made_on({"device": META}) == ""
    assert watch.made_on({"device": None}) == ""


# --- the step on the meta device ---------------------------------------------------------


def test_each_way_a_step_leaves_the_meta_device_gets_its_whole_hint():
    def reads_back(net, X, y, opt, device):
        return _step(net, X, y, opt, device).cpu()

    def moves_back(net, X, y, opt, device):
        return _step(net, X, y, opt, device).to("cpu")

    def rebuilds_the_model_on_the_cpu(net, X, y, opt, device):
        net.to_empty(device="cpu")  # X and y arrive on the CPU: the step runs there
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS))
        return loss.detach()

    def returns_a_number(net, X, y, opt, device):
        _step(net, X, y, opt, device)
        return 0.5

    def tries_the_gpu_by_name(net, X, y, opt, device):
        try:
            X = X.to("cuda")  # falls back where there is none
        except (AssertionError, RuntimeError):
            X = X.to(device)
        return _step(net, X, y, opt, device)

    def tries_the_gpu_then_reads_back(*args):
        return tries_the_gpu_by_name(*args).cpu()

    def model_split(net, X, y, opt, device):
        net[0].to_empty(device="cpu")
        net[2].weight.__class__ = _OnAnotherGpu
        return torch.zeros((), device=device)

    def stub(*args):
        raise NotImplementedError("your code here")

    def other_error(net, X, y, opt, device):
        raise RuntimeError("mat1 and mat2 shapes cannot be multiplied")

    line = reads_back.__code__.co_firstlineno + 1
    assert _hint(parts._on_meta, reads_back, True) == (
        "the step copies a tensor from the model's device to the CPU (.cpu(), .to('cpu'), "
        ".numpy(), .tolist(), or the model itself) (in your function reads_back, line "
        f"{line}: `return _step(net, X, y, opt, device).cpu()`): keep the model on its device "
        "and move the data to it"
    )
    assert _hint(parts._on_meta, moves_back, True).startswith("the step moves tensors to cpu")
    assert _hint(parts._on_meta, rebuilds_the_model_on_the_cpu, False) == (
        "the step moved the model to cpu: keep the model where it is and move the data to it"
    )
    assert _hint(parts._on_meta, tries_the_gpu_by_name, True) == watch.BY_NAME
    assert _hint(parts._on_meta, tries_the_gpu_then_reads_back, True) == watch.BY_NAME
    assert _hint(parts._on_meta, model_split, True) == (
        "the step moved the model to cpu, cuda:1: keep the model where it is and move the data "
        "to it"
    )
    assert _hint(parts._on_meta, returns_a_number, True) == (
        "train_step returned float: return the loss as a tensor, loss.detach(), as the given "
        "step does"
    )
    assert _hint(parts._on_meta, lambda *args: None, True) == (
        "train_step returned None: return the loss as a tensor, loss.detach(), as the given "
        "step does"
    )
    with pytest.raises(NotImplementedError, match="your code here"):
        parts._on_meta(stub, True)
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        parts._on_meta(other_error, True)
    loss = parts._on_meta(_step, False)
    assert loss.is_meta and loss.shape == ()


def test_a_cpu_operand_meta_lets_through_is_named_with_what_a_gpu_would_do():
    def eye(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        logits = net(X) @ torch.eye(3)
        loss = F.cross_entropy(logits, y, weight=torch.tensor(WEIGHTS, device=device))
        return loss.detach()

    assert _hint(parts._on_meta, eye, False) == (
        "torch.eye(...) made in your step without device= stays on the CPU while the model is "
        "on the device (matmul got both): create it on the device (the device= argument of the "
        "function that makes it); the meta device let it through, a GPU would raise a "
        "device-mismatch error"
    )


# --- the real steps ----------------------------------------------------------------------


def test_the_real_steps_name_a_loss_of_the_wrong_shape_or_type():
    def per_example(net, X, y, opt, device):
        return _step(net, X, y, opt, device, reduction="none")

    with pytest.raises(CheckFailed) as failed:
        parts._check_device_bug(per_example, [])
    assert str(failed.value) == (
        "train_step returned Tensor of shape (16,): return the loss as a 0-d tensor, loss.detach()"
    )

    def number_off_meta(net, X, y, opt, device):
        loss = _step(net, X, y, opt, device)
        return loss if loss.is_meta else loss.item()

    with pytest.raises(CheckFailed) as failed:
        parts._check_device_bug(number_off_meta, [])
    assert str(failed.value) == (
        "train_step returned float: return the loss as a 0-d tensor, loss.detach()"
    )


def test_the_real_steps_name_how_the_parameters_went_wrong():
    differ = "after three steps the parameters differ from the reference: "

    def never_steps(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        opt.zero_grad()
        loss.backward()
        return loss.detach()

    def unweighted(net, X, y, opt, device):
        return _step(net, X, y, opt, device, weights=torch.ones(3, device=device))

    def no_zero_grad(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        loss.backward()
        opt.step()
        return loss.detach()

    def slower(net, X, y, opt, device):
        for group in opt.param_groups:
            group["lr"] = 0.01
        return _step(net, X, y, opt, device)

    def zero_grad_between(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        loss.backward()
        opt.zero_grad()
        opt.step()
        return loss.detach()

    hints = {}
    for answer in (never_steps, unweighted, no_zero_grad, slower, zero_grad_between):
        with pytest.raises(CheckFailed) as failed:
            parts._check_device_bug(answer, [])
        hints[answer.__name__] = str(failed.value)
    assert hints == {
        "never_steps": differ + "opt.step() was never called on the optimizer you are given. "
        "Keep opt.step() after loss.backward(), with the opt passed in (a new optimizer made "
        "inside the step starts from scratch every time)",
        "unweighted": differ + "the class weights are missing: keep weight=class_weights in "
        "F.cross_entropy",
        "no_zero_grad": differ + "the gradients of the previous step were not cleared: keep "
        "opt.zero_grad() before loss.backward()",
        "slower": differ + "use the optimizer you are given (opt), and keep the class weights "
        "[1.0, 2.0, 1.0], the cross-entropy loss, opt.zero_grad(), loss.backward() and "
        "opt.step(); only change where tensors live",
        "zero_grad_between": differ + "every opt.step() found the gradients zero or None, so "
        "opt.zero_grad() ran between loss.backward() and opt.step() and cleared what the step "
        "needed. Call opt.zero_grad() before loss.backward() (or after opt.step())",
    }


def test_the_record_of_steps_says_whether_each_found_a_gradient():
    w = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w], lr=0.1)
    stepped_with = parts._record_steps(opt)
    opt.step()  # no gradient yet
    w.grad = torch.zeros(2)
    opt.step()
    w.grad = torch.tensor([0.0, 1.0])
    opt.step()
    assert stepped_with == [False, False, True]
    assert w.tolist() == pytest.approx([1.0, 0.9])  # the step itself still ran


def test_the_answer_must_be_a_function():
    assert _hint(parts.check_device_bug, "train_step", []) == (
        "pass the fixed function: check('03.device_bug', train_step)"
    )
    passed = []
    parts.check_device_bug(_step, passed)
    assert passed == [
        "tensors made inside the step live on the model's device (checked with the model on "
        "the meta device, every operation watched for a CPU operand)",
        "a batch that arrives on the CPU is moved to the model's device, every call",
        "the model stays on its device, and runs forward once per step",
        "the step makes the host wait for nothing (torch.cuda.synchronize, .item())",
        "three steps on try_gpu() match the reference step (with the optimizer given, SGD with "
        "momentum, and a last batch of one example)",
    ]


# --- round 19: moves, stale batches, extra forwards, waits, the loss returned -------------


def test_a_move_to_another_tensors_device_is_not_a_mix_and_uses_are_recorded():
    logits = torch.randn(4, 3, device=META)
    X = torch.randn(4, 3)
    with watch.Origins([(X, "the batch X")]) as origins:
        torch.tensor(WEIGHTS).to(logits)  # w.to(other): other's device and dtype
        torch.tensor(WEIGHTS).type_as(logits)
        assert X.shape == (4, 3)  # a query: not a use
    assert origins.mixed is None and "the batch X" not in origins.used
    with watch.Origins([(X, "the batch X")]) as origins:
        X.to(META) @ logits.t()
    assert origins.used == {"the batch X"}


def test_a_step_that_reuses_an_earlier_calls_batch_is_named():
    cache = {}

    def cached(net, X, y, opt, device):
        if id(X) not in cache:
            cache[id(X)] = X.to(device), y.to(device)
        return _step(net, *cache[id(X)], opt, device)

    assert _hint(parts._on_meta, cached, False, True) == (
        "called again with the same batch tensors holding new values, the step never read X or "
        "y: it reused what it moved on an earlier call (a cache keyed by id(X) or by the "
        "tensor), which trains on a stale batch when a buffer is refilled or a new batch gets a "
        "freed one's id. Move the batch it is given, X.to(device), on every call"
    )
    assert parts._on_meta(_step, False, True).is_meta


def test_a_second_forward_is_named_and_one_after_the_step_as_the_wrong_loss():
    accuracy = []

    def twice(net, X, y, opt, device):
        accuracy.append(net(X.to(device)).argmax(dim=1))
        return _step(net, X, y, opt, device)

    def after_step(net, X, y, opt, device):
        _step(net, X, y, opt, device)
        with torch.no_grad():
            w = torch.tensor(WEIGHTS, device=device)
            return F.cross_entropy(net(X.to(device)), y.to(device), weight=w)

    assert _hint(parts._on_meta, twice, True) == (
        "the step runs the model forward twice: one forward per step, as the given step does. "
        "A second one (for accuracy, say) doubles the cost of the forward pass; compute what "
        "else you need from the logits of the one forward (logits.detach().argmax(dim=1))"
    )
    assert _hint(parts._on_meta, after_step, True) == (
        "the step runs the model forward again after opt.step(): a second forward, on the "
        "updated weights, whose loss is not the one the step was taken on. Return "
        "loss.detach() of the loss that loss.backward() was called on, as the given step does "
        "(one forward per step)"
    )


def test_a_wait_behind_cuda_is_available_is_seen_and_default_device_left_set_is_named():
    def synchronizes(net, X, y, opt, device):
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        return _step(net, X, y, opt, device)

    assert _hint(parts._waits_for_the_gpu, synchronizes).startswith(
        "the step calls torch.cuda.synchronize() (seen in a run where "
        "torch.cuda.is_available() was True): on a GPU the host then waits every step"
    )
    parts._waits_for_the_gpu(_step)  # no wait: nothing to say

    def default_device(net, X, y, opt, device):
        torch.set_default_device(device)
        return _step(net, X, y, opt, device)

    assert _hint(parts._on_meta, default_device, True).startswith(
        "the step leaves a process-wide default of torch changed "
        "(torch.set_default_device('meta')): every tensor made (or product computed) afterwards"
    )
    assert torch.get_default_device() == torch.device("cpu")  # put back


def test_the_real_steps_name_an_attached_loss_a_different_loss_and_step_before_backward():
    def attached(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss

    def unweighted_report(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        logits = net(X)
        loss = F.cross_entropy(logits, y, weight=torch.tensor(WEIGHTS, device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return F.cross_entropy(logits.detach(), y)  # not the loss the step was taken on

    def step_first(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        opt.zero_grad()
        opt.step()
        loss.backward()
        return loss.detach()

    assert _hint(parts._check_device_bug, attached, []) == (
        "train_step returned the loss still attached to the autograd graph (requires_grad=True): "
        "every loss the caller keeps (the notebook stacks twenty) keeps its step's whole graph "
        "alive, activations included. Return loss.detach(), as the given step does"
    )
    assert _hint(parts._check_device_bug, unweighted_report, []).startswith(
        "the parameters match the reference, but train_step returned the losses ["
    )
    assert _hint(parts._check_device_bug, step_first, []) == (
        "after three steps the parameters differ from the reference: every opt.step() found the "
        "gradients zero or None, and loss.backward() filled them after it: opt.step() was called "
        "before loss.backward(), so each step used no gradients and the next opt.zero_grad() "
        "cleared the ones computed. Keep the order opt.zero_grad(), loss.backward(), opt.step()"
    )


def test_empty_cache_behind_cuda_is_available_is_named():
    def empties(net, X, y, opt, device):
        loss = _step(net, X, y, opt, device)
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
        return loss

    assert _hint(parts._waits_for_the_gpu, empties).startswith(
        "the step calls torch.cuda.empty_cache() (seen in a run where "
        "torch.cuda.is_available() was True): it hands the caching allocator's free memory "
        "back to the driver every step"
    )


def test_a_closure_step_passes_and_what_a_step_leaves_behind_is_named():
    def closure_step(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        w = torch.tensor(WEIGHTS, device=device)

        def closure():
            opt.zero_grad()
            loss = F.cross_entropy(net(X), y, weight=w)
            loss.backward()
            return loss

        return opt.step(closure).detach()

    passed: list[str] = []
    parts.check_device_bug(closure_step, passed)
    assert passed[-1].startswith("three steps on try_gpu() match the reference step")

    kept = []

    def keeps_loss(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        kept.append(loss)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    def seeds(net, X, y, opt, device):
        torch.manual_seed(0)
        return _step(net, X, y, opt, device)

    def zero_grad_after(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device)).backward()
        opt.step()
        opt.zero_grad()
        return None

    def clips(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor(WEIGHTS, device=device))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
        opt.step()
        return loss.detach()

    assert _hint(parts.check_device_bug, keeps_loss, []).startswith(
        "after the step returned, the loss that loss.backward() was called on is still "
        "alive, attached to its graph: something keeps it (a list for logging, a global)"
    )
    assert _hint(parts.check_device_bug, seeds, []).startswith(
        "the step changed the global random generator (torch.manual_seed, or a random draw): "
        "the given step draws no random numbers"
    )
    assert _hint(parts.check_large_gradients, clips, torch.device("cpu")) == (
        "on a batch whose gradients are large (norm well over 1), the step's update differs "
        "from the given step's: the gradients were clipped (clip_grad_norm_); keep the "
        "step's computation as given (no clipping or rescaling of the gradients); only "
        "change where tensors live"
    )
    parts.check_large_gradients(zero_grad_after, torch.device("cpu"))  # right: passes


def test_a_loss_divided_by_the_batch_size_is_named():
    def one_hot(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        logits = net(X)
        target = F.one_hot(y, 3).to(logits.dtype)
        loss = F.cross_entropy(logits, target, weight=torch.tensor(WEIGHTS, device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert _hint(parts.check_device_bug, one_hot, []).startswith(
        "after three steps the parameters differ from the reference: the loss divides the "
        "weighted losses by the batch size, not by the sum of the targets' class weights"
    )
