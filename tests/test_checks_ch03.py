"""The checker of 03.parameters and 03.device_bug: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import pytest
import torch
import torch.nn.functional as F
from grading_helpers import assert_fails, assert_passes
from torch import nn


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


PARAMETERS = (halve_first_layer, save_parameters, load_parameters)


def test_parameters_reference_passes():
    passed = assert_passes("03.parameters", PARAMETERS).passed
    assert len(passed) == 8
    assert passed[-2] == "load_parameters builds the model with the make_net it is given"
    assert passed[-1] == "load_parameters refuses a checkpoint that lacks one of the model's keys"


def test_parameters_a_load_that_builds_a_model_of_its_own_is_named():
    def own_model(make_net, path, device):  # the exercise's architecture, written out
        net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
        return net.to(device)

    result = assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, own_model),
        "given another make_net (a model of 16 hidden units, not 8)",
        "calling the make_net you are given",
    )
    assert len(result.passed) == 6  # right wherever make_net is the exercise's


def test_parameters_rejects_loading_without_map_location():
    def no_map_location(make_net, path, device):
        net = make_net().to(device)
        net.load_state_dict(torch.load(path, weights_only=True))
        return net

    result = assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, no_map_location),
        "a checkpoint written on a GPU this machine does not have",
        "map_location=device",
    )
    assert len(result.passed) == 2


def test_parameters_rejects_replacing_the_parameter():
    def replaces(net):
        net[0].weight = torch.nn.Parameter(net[0].weight.detach() * 0.5)

    assert_fails(
        "03.parameters", (replaces, save_parameters, load_parameters), "different Parameter object"
    )


def test_parameters_rejects_an_in_place_change_under_autograd():
    def under_autograd(net):
        net[0].weight.mul_(0.5)

    assert_fails(
        "03.parameters", (under_autograd, save_parameters, load_parameters), "torch.no_grad()"
    )


def test_parameters_names_a_layer_frozen_apart_from_a_change_autograd_recorded():
    def frozen(net):
        net[0].weight.requires_grad_(False)  # meant to keep autograd out, never put back
        net[0].weight.mul_(0.5)

    def recorded(net):
        weight = net[0].weight
        weight.requires_grad_(False)
        weight.mul_(torch.tensor(0.5, requires_grad=True))  # a leaf no more: it has a grad_fn

    assert_fails(
        "03.parameters",
        (frozen, save_parameters, load_parameters),
        "requires_grad is now False: the layer is frozen",
    )
    assert_fails(
        "03.parameters",
        (recorded, save_parameters, load_parameters),
        "(autograd recorded the change: it has a grad_fn): make the change under "
        "torch.no_grad(), so autograd does not record it",
    )


def test_parameters_names_grad_mode_switched_on_for_a_caller_that_had_it_off():
    def forced_on(net):
        torch.set_grad_enabled(False)
        net[0].weight.mul_(0.5)
        torch.set_grad_enabled(True)  # on, whatever the caller had

    def put_back(net):
        was = torch.is_grad_enabled()
        torch.set_grad_enabled(False)
        try:
            net[0].weight.mul_(0.5)
        finally:
            torch.set_grad_enabled(was)

    assert_fails(
        "03.parameters",
        (forced_on, save_parameters, load_parameters),
        "halve_first_layer (called under torch.no_grad()) leaves a process-wide default of torch "
        "changed (torch.set_grad_enabled(True))",
    )
    assert_passes("03.parameters", (put_back, save_parameters, load_parameters))
    assert torch.is_grad_enabled()


@pytest.mark.parametrize("flat", ["reshape", "flatten", "contiguous"])
def test_parameters_names_a_copy_of_a_weight_stored_transposed_halved(flat):
    def halves_a_copy(net):
        with torch.no_grad():
            getattr(net[0].weight, flat)(*([-1] if flat == "reshape" else [])).mul_(0.5)

    def halves_a_view(net):
        with torch.no_grad():
            net[0].weight.t().mul_(0.5)  # a view of any layout: the weight itself

    assert_fails(
        "03.parameters",
        (halves_a_copy, save_parameters, load_parameters),
        "given a first layer whose weight is not contiguous (stored transposed",
        "is a copy",
    )
    assert_passes("03.parameters", (halves_a_view, save_parameters, load_parameters))


def test_parameters_rejects_saving_the_whole_module():
    def whole_module(net, path):
        torch.save(net, path)

    assert_fails(
        "03.parameters", (halve_first_layer, whole_module, load_parameters), "save net.state_dict()"
    )


def test_parameters_names_classes_allowed_to_weights_only_loads_and_puts_the_list_back():
    source = (
        "import torch\nfrom torch import nn\n\n"
        "def save_parameters(net, path):\n"
        "    torch.serialization.add_safe_globals([nn.Sequential, nn.Linear, nn.ReLU])\n"
        "    torch.save(net, path)\n"
    )
    scope: dict = {}
    exec(compile(source, "answer.py", "exec"), scope)  # noqa: S102  # a learner's file
    allowed = set(torch.serialization.get_safe_globals())
    assert_fails(
        "03.parameters",
        (halve_first_layer, scope["save_parameters"], load_parameters),
        "save_parameters leaves a process-wide setting changed "
        "(torch.serialization.add_safe_globals([Linear, ReLU, Sequential]))",
    )
    assert set(torch.serialization.get_safe_globals()) == allowed  # put back: later loads refuse


def test_parameters_alternatives_pass():
    def halve_through_data(net):
        net[0].weight.data *= 0.5

    def save_copies_on_the_cpu(net, path):
        torch.save({k: v.detach().cpu() for k, v in net.state_dict().items()}, path)

    def load_then_move(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
        return net.to(device)

    def load_with_assign(make_net, path, device):
        state = torch.load(path, map_location=device, weights_only=True)
        net = make_net().to(device)
        net.load_state_dict(state, assign=True)
        return net

    assert_passes("03.parameters", (halve_through_data, save_copies_on_the_cpu, load_then_move))
    assert_passes("03.parameters", (halve_first_layer, save_parameters, load_with_assign))


def test_parameters_rejects_a_save_that_moves_the_model():
    def moves_to_cpu(net, path):
        torch.save(net.cpu().state_dict(), path)

    def to_cpu(net, path):
        net.to("cpu")
        torch.save(net.state_dict(), path)

    def halves_it(net, path):
        torch.save(net.half().state_dict(), path)

    for save in (moves_to_cpu, to_cpu):
        assert_fails(
            "03.parameters",
            (halve_first_layer, save, load_parameters),
            "moved the model itself to the CPU",
        )
    assert_fails("03.parameters", (halve_first_layer, halves_it, load_parameters), "dtype")


def test_parameters_rejects_loads_that_leave_the_model_on_the_wrong_device():
    def stays_on_cpu(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
        return net

    def model_not_moved(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
        return net

    # Without a GPU the meta device shows the mistake; with one, the GPU itself does.
    expected = (
        ("parameters on cpu", "build it there (to(device))")
        if torch.cuda.is_available()
        else ("asked for device meta", "put the model on the device you are given (to(device))")
    )
    assert_fails("03.parameters", (halve_first_layer, save_parameters, stays_on_cpu), *expected)
    assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, model_not_moved),
        "the model stayed on the CPU",
    )


def test_parameters_rejects_returning_no_model_and_halving_everything():
    def returns_state(make_net, path, device):
        return torch.load(path, map_location=device, weights_only=True)

    assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, returns_state),
        "load_parameters returned a OrderedDict: return the model",
    )

    def halves_all(net):
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(0.5)

    assert_fails(
        "03.parameters", (halves_all, save_parameters, load_parameters), "only net[0].weight"
    )


def test_parameters_names_an_out_of_place_product_thrown_away():
    def thrown_away(net):
        with torch.no_grad():
            net[0].weight.mul(0.5)

    assert_fails(
        "03.parameters",
        (thrown_away, save_parameters, load_parameters),
        "net[0].weight is unchanged: an operation without a trailing _ (mul, *) makes a new "
        "tensor, which is thrown away unless you keep it",
    )

    def by_three_quarters(net):  # changed, but not halved: the plain hint
        with torch.no_grad():
            net[0].weight.mul_(0.75)

    result = assert_fails(
        "03.parameters",
        (by_three_quarters, save_parameters, load_parameters),
        "net[0].weight should be exactly half of what it was",
    )
    assert "unchanged" not in result.hint


def test_parameters_rejects_an_unsafe_load_however_it_is_written():
    def unsafe_keyword(make_net, path, device):
        net = make_net().to(device)
        net.load_state_dict(torch.load(path, map_location=device, weights_only=False))
        return net

    from torch import load as load_anything  # an alias: the checker must see through it

    def unsafe_alias_and_options(make_net, path, device):
        options = {"map_location": device, "weights_only": False}
        return _filled(make_net, load_anything(path, **options), device)

    for unsafe in (unsafe_keyword, unsafe_alias_and_options):
        assert_fails(
            "03.parameters",
            (halve_first_layer, save_parameters, unsafe),
            "weights_only=False",
            "can run code",
        )


def _filled(make_net, state, device):
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


def test_parameters_loads_written_in_other_safe_styles_pass():
    def default_is_safe(make_net, path, device):  # weights_only=True is torch.load's default
        net = make_net().to(device)
        net.load_state_dict(torch.load(path, map_location=device))
        return net

    def helper_and_partial(make_net, path, device):
        import functools

        load_here = functools.partial(torch.load, map_location=device, weights_only=True)
        return _filled(make_net, load_here(path), device)

    assert_passes("03.parameters", (halve_first_layer, save_parameters, default_is_safe))
    assert_passes("03.parameters", (halve_first_layer, save_parameters, helper_and_partial))


# ---------------------------------------------------------------------------------------------
# 03.device_bug


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor([1.0, 2.0, 1.0], device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


def test_device_bug_reference_passes():
    assert len(assert_passes("03.device_bug", train_step).passed) == 5


def test_device_bug_alternatives_pass():
    def weights_then_move(net, X, y, opt, device):
        weights = torch.tensor([1.0, 2.0, 1.0]).to(device)
        out = net(X.to(device, non_blocking=True))
        loss = F.cross_entropy(out, y.to(device), weight=weights)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.detach()

    def device_from_the_model(net, X, y, opt, device):
        where = next(net.parameters()).device
        X, y = X.to(where), y.to(where)
        loss = F.cross_entropy(net(X), y, weight=torch.as_tensor([1.0, 2.0, 1.0], device=where))
        net.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_passes("03.device_bug", weights_then_move)
    assert_passes("03.device_bug", device_from_the_model)


def test_device_bug_names_a_buffer_or_parameter_the_step_adds_to_the_callers_model():
    def weights_as_a_buffer(net, X, y, opt, device):
        net.register_buffer("class_weights", torch.tensor([1.0, 2.0, 1.0], device=device))
        loss = F.cross_entropy(net(X.to(device)), y.to(device), weight=net.class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails(
        "03.device_bug",
        weights_as_a_buffer,
        "train_step changed the caller's model: its state_dict gained class_weights "
        "(register_buffer, or a Parameter or module set as an attribute)",
    )

    def weights_as_a_parameter(net, X, y, opt, device):
        net.w = nn.Parameter(torch.tensor([1.0, 2.0, 1.0], device=device), requires_grad=False)
        loss = F.cross_entropy(net(X.to(device)), y.to(device), weight=net.w)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", weights_as_a_parameter, "its state_dict gained w (")


def test_device_bug_names_class_weights_made_from_the_unmoved_batch():
    def weights_from_x(net, X, y, opt, device):
        class_weights = torch.tensor([1.0, 2.0, 1.0], device=X.device)  # before X moves
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    result = assert_fails(
        "03.device_bug",
        weights_from_x,
        "torch.tensor(...) made in your step with device=cpu stays on the CPU",
        "it was made with device=cpu: pass the device the step is given (X.device is the CPU "
        "until X is moved)",
    )
    assert "batch" not in result.hint


def test_device_bug_names_data_moved_to_a_device_chosen_inside_the_step():
    for chosen in ("cpu", torch.device("cpu"), "X.device"):

        def own_device(net, X, y, opt, device, chosen=chosen):
            dev = X.device if chosen == "X.device" else chosen
            X, y = X.to(dev), y.to(device=dev)
            loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            return loss.detach()

        assert_fails(
            "03.device_bug",
            own_device,
            "the step moves tensors to cpu (.to()), not to the device it is given: use "
            ".to(device) with the argument device",
        )

    def dtype_only(net, X, y, opt, device):  # .to(dtype) names no device: not a move
        return train_step(net, X.to(torch.float32), y, opt, device)

    assert_passes("03.device_bug", dtype_only)


def test_device_bug_names_a_missing_return_zero_grad_and_a_new_optimizer():
    def returns_nothing(*args):
        train_step(*args)

    result = assert_fails("03.device_bug", returns_nothing, "train_step returned None")
    assert "ch03_networks" not in result.hint and "line" not in result.hint

    def no_zero_grad(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", no_zero_grad, "keep opt.zero_grad()")

    def own_optimizer(net, X, y, opt, device):
        return train_step(net, X, y, torch.optim.SGD(net.parameters(), lr=0.1), device)

    assert_fails("03.device_bug", own_optimizer, "with the opt passed in", "a new optimizer")


def test_device_bug_names_zero_grad_between_backward_and_step():
    def zero_grad_between(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        loss.backward()
        opt.zero_grad()  # clears what the step is about to use
        opt.step()
        return loss.detach()

    def model_zero_grad_between(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        loss.backward()
        net.zero_grad(set_to_none=False)  # zeros, not None: the same mistake
        opt.step()
        return loss.detach()

    for wrong in (zero_grad_between, model_zero_grad_between):
        result = assert_fails(
            "03.device_bug", wrong, "between loss.backward() and opt.step()", "zero or None"
        )
        assert "never called" not in result.hint


def test_device_bug_steps_written_in_other_orders_pass():
    def zero_grad_after_step(net, X, y, opt, device):  # cleared for the next step instead
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss.detach()

    class Step:  # a callable object that keeps the weights made once per device
        def __init__(self):
            self.weights = {}

        def __call__(self, net, X, y, opt, device):
            key = str(device)
            if key not in self.weights:
                self.weights[key] = torch.tensor([1.0, 2.0, 1.0]).to(device)
            opt.zero_grad()
            out = net(X.to(device))
            loss = F.cross_entropy(out, y.to(device), weight=self.weights[key])
            loss.backward()
            opt.step()
            return loss.detach()

    assert_passes("03.device_bug", zero_grad_after_step)
    assert_passes("03.device_bug", Step())


def test_device_bug_copies_into_device_tensors_are_transfers_and_pass():
    def copy_into_buffers(net, X, y, opt, device):
        weights = torch.empty(3, device=device)
        weights.copy_(torch.tensor([1.0, 2.0, 1.0]))  # a host-to-device copy
        X_dev = torch.empty_like(X, device=device).copy_(X)
        loss = F.cross_entropy(net(X_dev), y.to(device), weight=weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    def setitem_into_device_tensors(net, X, y, opt, device):
        weights = torch.ones(3, device=device)
        weights[1] = 2.0
        X_dev = torch.zeros(X.shape, device=device)
        X_dev[:] = X  # also a copy to the device
        loss = F.cross_entropy(net(X_dev), y.to(device), weight=weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_passes("03.device_bug", copy_into_buffers)
    assert_passes("03.device_bug", setitem_into_device_tensors)


def test_device_bug_rejects_a_hard_coded_gpu():
    def cuda_by_name(net, X, y, opt, device):
        return train_step(net, X.cuda(), y.cuda(), opt, device)

    assert_fails("03.device_bug", cuda_by_name, "uses the GPU by name", ".to(device)")

    def weights_on_the_gpu_by_name(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        class_weights = torch.tensor([1.0, 2.0, 1.0], device="cuda")
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", weights_on_the_gpu_by_name, "uses the GPU by name")


def test_device_bug_rejects_the_original_buggy_step():
    def buggy(net, X, y, opt, device):
        class_weights = torch.tensor([1.0, 2.0, 1.0])
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", buggy, "torch.tensor(...) made in your step without device=")


def test_device_bug_rejects_a_batch_left_on_the_cpu():
    def data_left(net, X, y, opt, device):
        class_weights = torch.tensor([1.0, 2.0, 1.0], device=device)
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    result = assert_fails("03.device_bug", data_left, "the batch X is still on the CPU")
    assert len(result.passed) == 1


def test_device_bug_rejects_moving_the_model_to_the_cpu():
    def model_moved(net, X, y, opt, device):
        net.to("cpu")
        class_weights = torch.tensor([1.0, 2.0, 1.0])
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", model_moved, "keep the model on its device")


def test_device_bug_rejects_an_item_per_step_and_a_dropped_weight():
    def with_item(*args):
        return train_step(*args).item()

    assert_fails("03.device_bug", with_item, "return the loss tensor")

    def unweighted(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", unweighted, "the class weights are missing")


def test_device_bug_rejects_a_cpu_operand_that_meta_lets_through():
    # meta @ cpu raises nothing on the meta device (chapter 2), and on a CPU-only machine the
    # real steps are all on the CPU: only the watch on every operation catches this step.
    def eye_on_the_cpu(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        logits = net(X) @ torch.eye(3)
        loss = F.cross_entropy(logits, y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    result = assert_fails(
        "03.device_bug",
        eye_on_the_cpu,
        "torch.eye(...) made in your step without device= stays on the CPU",
        "the meta device let it through",
    )
    assert "PyTorch said" not in result.hint  # nothing raised: the hint says so itself


# ---------------------------------------------------------------------------------------------
# On a real GPU (on a CPU, the tests above run the CUDA branches with fakes).

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


@pytest.mark.cuda
@requires_cuda
def test_on_a_gpu_device_bug_and_parameters_run_on_it():
    assert_passes("03.device_bug", train_step)
    assert_passes("03.parameters", PARAMETERS)


def test_the_exercises_model_and_how_two_of_them_are_compared():
    from torch import nn

    from d2lgpu.checks._ch03_networks import make_net, same_params, seeded_net

    assert [type(m) for m in make_net()] == [nn.Linear, nn.ReLU, nn.Linear]
    a, b = seeded_net(0), seeded_net(0)
    assert same_params(a, b) and not same_params(a, seeded_net(1), close=True)
    with torch.no_grad():
        b[0].weight[0, 0] += 5e-7  # float rounding: equal only when close is asked for
        b[0].bias.fill_(1000.0)
        a[0].bias.fill_(1000.0 + 5e-3)  # within rtol=1e-5 of 1000
    assert not same_params(a, b) and same_params(a, b, close=True)
    with torch.no_grad():
        a[0].bias.fill_(1010.0)  # 1% apart: not rounding
    assert not same_params(a, b, close=True)


def test_a_process_wide_default_left_changed_is_named_and_put_back():
    from d2lgpu.checks._ch03_networks import defaults_kept
    from d2lgpu.checks._util import CheckFailed

    for change, shown in (
        (lambda: torch.set_default_dtype(torch.float64), "torch.set_default_dtype(torch.float64)"),
        (lambda: torch.set_grad_enabled(False), "torch.set_grad_enabled(False)"),
        (
            lambda: torch.autograd.set_detect_anomaly(True),
            "torch.autograd.set_detect_anomaly(True)",
        ),
        (
            lambda: torch.autograd.set_detect_anomaly(False, check_nan=False),
            "torch.autograd.set_detect_anomaly(False)",
        ),
    ):
        with pytest.raises(CheckFailed) as failed, defaults_kept("your function"):
            change()
        assert str(failed.value).startswith(
            f"your function leaves a process-wide default of torch changed ({shown}): every "
            "tensor made (or product computed) afterwards anywhere in the program, the caller's "
            "too, follows it."
        )
        assert torch.get_default_dtype() == torch.float32 and torch.is_grad_enabled()
        assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
    with (
        defaults_kept("a with-block"),
        torch.no_grad(),
        torch.autograd.detect_anomaly(),
    ):  # undone when it ends: nothing to say
        pass

    def halve_grad_off(net):
        torch.set_grad_enabled(False)
        net[0].weight.mul_(0.5)

    assert_fails(
        "03.parameters",
        (halve_grad_off, save_parameters, load_parameters),
        "halve_first_layer leaves a process-wide default",
        "torch.set_grad_enabled(False)",
    )


def test_parameters_rejects_a_map_location_dict_for_cuda_0_only():
    def load_renaming_cuda0(make_net, path, device):
        net = make_net()
        state = torch.load(path, map_location={"cuda:0": str(device)}, weights_only=True)
        net.load_state_dict(state)
        return net.to(device)

    assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, load_renaming_cuda0),
        "not a dict that renames only some GPUs",
    )


def closure_step(zero_grad_last=False, by_keyword=False):
    """The step written with an optimizer closure, opt.step(closure) (or closure=closure)."""

    def train_step(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        class_weights = torch.tensor([1.0, 2.0, 1.0], device=device)

        def closure():
            if not zero_grad_last:
                opt.zero_grad()
            loss = F.cross_entropy(net(X), y, weight=class_weights)
            loss.backward()
            if zero_grad_last:
                opt.zero_grad()  # inside the step, before it reads the gradients
            return loss

        loss = opt.step(closure=closure) if by_keyword else opt.step(closure)
        return loss.detach()

    return train_step


def test_a_step_given_a_closure_is_read_after_the_closure_made_its_gradients():
    assert_passes("03.device_bug", closure_step())
    assert_passes("03.device_bug", closure_step(by_keyword=True))
    assert_fails(
        "03.device_bug",
        closure_step(zero_grad_last=True),
        "every opt.step() found the gradients zero or None, so opt.zero_grad() ran between",
    )


def test_device_bug_names_a_to_whose_result_was_not_kept():
    """x.to(device) returns a copy and leaves x where it was: the hint says so for the batch
    and for a tensor the step made, not only that the tensor is still on the CPU."""

    def batch_not_assigned(net, X, y, opt, device):
        X.to(device)
        y = y.to(device)
        class_weights = torch.tensor([1.0, 2.0, 1.0], device=device)
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    def weights_not_assigned(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        class_weights = torch.tensor([1.0, 2.0, 1.0])
        class_weights.to(device)
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails(
        "03.device_bug",
        batch_not_assigned,
        "the batch X is still on the CPU",
        "X.to(device) was called, but to() returns a copy",
        "(X = X.to(device))",
    )
    assert_fails(
        "03.device_bug",
        weights_not_assigned,
        "torch.tensor(...) made in your step without device=",
        "t.to(device) was called, but to() returns a copy",
    )


def test_device_bug_names_a_batch_changed_in_place():
    """On the CPU X.to(device) is X itself: an in-place change of it is the caller's batch
    changed, named as such (the parameters differ from the reference too)."""

    def standardised_in_place(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        X.sub_(X.mean(dim=0))
        return train_step(net, X, y, opt, device)

    if torch.cuda.is_available():  # X.to(device) is a copy there: the step's result is named
        assert_fails("03.device_bug", standardised_in_place, "parameters differ from the reference")
        return
    assert_fails(
        "03.device_bug",
        standardised_in_place,
        "the step changed the batch X it was given, in place",
        "X.to(device) returns X itself",
    )


def test_device_bug_a_batch_of_one_and_a_loss_of_shape_one_are_named():
    def squeezed(net, X, y, opt, device):  # y.squeeze() drops a batch of one's dimension
        X, y = X.to(device), y.to(device).squeeze()
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", squeezed, "on a batch of one example (the third real step), "
                 "your code raised ", "a step takes a batch of any size")  # fmt: skip

    def shaped(net, X, y, opt, device):  # a loss of shape (1,), not the 0-d loss
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach().reshape(1)

    assert_fails("03.device_bug", shaped, "train_step returned Tensor of shape (1,): return the "
                 "loss as a 0-d tensor")  # fmt: skip


def test_parameters_a_save_left_running_on_a_thread_is_named():
    import threading

    def save_in_background(net, path):  # round 66's w07
        state = net.state_dict()
        threading.Thread(target=torch.save, args=(state, path)).start()

    assert_fails(
        "03.parameters", (halve_first_layer, save_in_background, load_parameters),
        "save_parameters returned before its file was written", "join",
    )  # fmt: skip


def test_parameters_a_model_loaded_in_inference_mode_is_named():
    def load_for_inference(make_net, path, device):  # round 66's w10
        with torch.inference_mode():
            return load_parameters(make_net, path, device)

    assert_fails(
        "03.parameters", (halve_first_layer, save_parameters, load_for_inference),
        "the loaded model's parameters are inference tensors",
    )  # fmt: skip


_WEIGHTS_AT_IMPORT = torch.tensor([1.0, 2.0, 1.0])  # made once, on the CPU


def test_device_bug_a_tensor_made_before_the_step_is_named_as_such():
    def weights_from_import(net, X, y, opt, device):  # round 66's w03
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=_WEIGHTS_AT_IMPORT)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails(
        "03.device_bug", weights_from_import, "a tensor on the CPU stays on the CPU",
        "your module holds it (a module-level tensor, or one cached there), made before the "
        "step ran, at import or in an earlier call",
    )  # fmt: skip
