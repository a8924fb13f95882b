"""The parts of the 03.parameters checker, each on the answers that reach it: the whole hint
each mistake gets, the devices no CPU machine has (the meta device and a parameter that
says it is on another GPU stand for them), and the checkpoint that runs code when loaded.

tests/test_checks_ch03.py grades whole answers; here each step is called on its own, so
that a hint is held word for word and a step is tried on a device the machine lacks.
"""

import pickle

import pytest
import torch
from torch import nn

from d2lgpu.checks import _ch03_halving as halving
from d2lgpu.checks import _ch03_loading as loading
from d2lgpu.checks import ch03_parameters as parts
from d2lgpu.checks._ch03_networks import make_net, seeded_net
from d2lgpu.checks._util import CheckFailed

META = torch.device("meta")
CPU = torch.device("cpu")


class _OnAnotherGpu(nn.Parameter):
    """A parameter that says it is on cuda:1, as one left on a second GPU would."""

    @property
    def device(self):
        return torch.device("cuda", 1)


def _hint(step, *args) -> str:
    with pytest.raises(CheckFailed) as failed:
        step(*args)
    return str(failed.value)


def _right_load(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


# --- halving the first layer ------------------------------------------------------------


def test_each_wrong_halving_gets_its_whole_hint():
    def moves_the_weight(net):  # as .cuda(1) would on a GPU: the same Parameter, moved
        net[0].weight.__class__ = _OnAnotherGpu

    def by_too_little(net):
        with torch.no_grad():
            net[0].weight.mul_(0.6)

    def halves_everything(net):
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(0.5)

    passed = []
    assert _hint(halving.check_halve, moves_the_weight, CPU, passed) == (
        "net[0].weight moved to cuda:1: keep the model on its device and change its parameters "
        "there"
    )
    assert _hint(halving.check_halve, by_too_little, CPU, passed) == (
        "net[0].weight should be exactly half of what it was"
    )
    assert _hint(halving.check_halve, halves_everything, CPU, passed) == (
        "only net[0].weight should change, but 0.bias, 2.weight, 2.bias did too"
    )
    assert passed == []


# --- saving -----------------------------------------------------------------------------


def test_each_wrong_save_gets_its_whole_hint(tmp_path):
    def moves_each_parameter(net, path):  # no module conversion: only the parameters tell
        for p in net.parameters():
            p.__class__ = _OnAnotherGpu  # the same Parameter, now on cuda:1
        torch.save(net.state_dict(), path)

    def halves_one_weight(net, path):
        net[0].weight.data = net[0].weight.data.half()
        torch.save(net.state_dict(), path)

    def writes_nothing(net, path):
        pass

    def saves_other_numbers(net, path):
        torch.save({k: torch.zeros_like(v) for k, v in net.state_dict().items()}, path)

    assert _hint(parts._check_save, moves_each_parameter, CPU, tmp_path, []) == (
        "save_parameters moved the model itself to cuda:1: the model being trained must stay "
        "on its GPU. Save its state_dict without moving it: the file records each tensor's "
        "device, and load_parameters' map_location puts it where you want"
    )

    def moves_one_weight(net, path):
        net[2].weight.__class__ = _OnAnotherGpu
        torch.save(net.state_dict(), path)

    (tmp_path / "e").mkdir()
    assert _hint(parts._check_save, moves_one_weight, CPU, tmp_path / "e", []).startswith(
        "save_parameters moved the model itself to cuda:1: "
    )

    def to_cpu(net, path):
        torch.save(net.cpu().state_dict(), path)

    (tmp_path / "a").mkdir()
    assert _hint(parts._check_save, to_cpu, CPU, tmp_path / "a", []) == (
        "save_parameters moved the model itself to the CPU (net.cpu() or net.to('cpu')): the "
        "model being trained must stay on its GPU. Save its state_dict without moving it: the "
        "file records each tensor's device, and load_parameters' map_location puts it where "
        "you want"
    )
    for folder in ("b", "c", "d"):
        (tmp_path / folder).mkdir()
    assert _hint(parts._check_save, halves_one_weight, CPU, tmp_path / "b", []) == (
        "save_parameters changed the model's dtype (net.half(), net.to(dtype)): only read the "
        "model, and save its state_dict as it is"
    )
    # path already holds an older checkpoint: left as it was, or written beside, is named
    assert _hint(parts._check_save, writes_nothing, CPU, tmp_path / "c", []) == (
        "path already held a file (an older checkpoint), and save_parameters left it as it "
        "was: a checkpoint saved every epoch at one path must replace the last one. "
        "torch.save(net.state_dict(), path) overwrites it"
    )

    def writes_beside(net, path):
        torch.save(net.state_dict(), str(path) + ".pth")

    (tmp_path / "beside").mkdir()
    assert _hint(parts._check_save, writes_beside, CPU, tmp_path / "beside", []) == (
        "save_parameters(net, path) wrote no file at path (it wrote saved_by_you.pt.pth beside "
        "it): torch.save(..., path), with path exactly as given"
    )
    assert _hint(parts._check_save, saves_other_numbers, CPU, tmp_path / "d", []) == (
        "the saved tensors differ from the model's parameters"
    )


def test_a_file_saved_from_a_gpu_is_read_back_on_the_cpu(tmp_path):
    # The model being trained is on a GPU, so the right file says its tensors were there:
    # the checker reads it with map_location, on a machine with no such GPU too.
    def saved_on_a_gpu(net, path):
        with parts.saved_as_if_on("cuda:5"):
            torch.save(net.state_dict(), path)

    passed = []
    path = parts._check_save(saved_on_a_gpu, CPU, tmp_path, passed)
    assert path == tmp_path / "saved_by_you.pt" and path.is_file()
    assert passed == [
        "save_parameters writes a state_dict that torch.load(weights_only=True) reads back exactly"
    ]
    with pytest.raises(RuntimeError, match="deserialize object on"):
        torch.load(path, weights_only=True)  # the label is there


# --- loading ----------------------------------------------------------------------------


@pytest.fixture
def checkpoint(tmp_path):
    path = tmp_path / "state.pt"
    torch.save(seeded_net(1).state_dict(), path)
    return path


def test_a_model_loaded_onto_the_wrong_device_is_named_with_where_it_is(checkpoint):
    def stays_on_cpu(make_net, path, device):
        return _right_load(make_net, path, CPU)

    def one_weight_on_another_gpu(make_net, path, device):
        net = _right_load(make_net, path, CPU)
        net[0].weight = _OnAnotherGpu(net[0].weight.detach())
        return net

    what = "your own checkpoint"
    assert _hint(loading.load_checked, stays_on_cpu, checkpoint, META, what) == (
        "the model stayed on the CPU: the loaded model has parameters on cpu, not on meta; "
        "build it there (to(device)) and then load into it, or move it there once loaded"
    )
    assert _hint(loading.load_checked, one_weight_on_another_gpu, checkpoint, META, what) == (
        "the model is on cpu, cuda:1: the loaded model has parameters on cpu, cuda:1, not on "
        "meta; build it there (to(device)) and then load into it, or move it there once "
        "loaded"
    )
    assert isinstance(loading.load_checked(_right_load, checkpoint, CPU, what), nn.Sequential)


def test_a_load_that_returns_no_model_is_named_with_what_it_returned(checkpoint):
    def returns_state(make_net, path, device):
        return torch.load(path, map_location=device, weights_only=True)

    assert _hint(loading.load_checked, returns_state, checkpoint, CPU, "your own checkpoint") == (
        "load_parameters returned a OrderedDict: return the model, built with make_net() and filled "
        "with load_state_dict"
    )
    assert _hint(loading.check_load_on_another_device, returns_state, checkpoint) == (
        "load_parameters returned a OrderedDict: return the model"
    )


def test_torch_loads_message_for_a_missing_gpu_gets_the_map_location_hint(checkpoint):
    # torch.load's two messages: no such backend, and a GPU number past the count.
    for message in (
        "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.",
        "Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 1.",
        "Attempting to deserialize object on a MPS device but torch.mps.is_available() is False.",
    ):

        def load(make_net, path, device, message=message):
            raise RuntimeError(message)

        assert _hint(
            loading.load_checked, load, checkpoint, CPU, "a checkpoint from elsewhere"
        ) == (
            "torch.load failed on a checkpoint from elsewhere: pass map_location=device, which "
            "moves every tensor to the device you ask for as it loads (the device itself, not a "
            "dict that renames only some GPUs: a checkpoint may name any GPU, cuda:1 as well as "
            "cuda:0)"
        )

    def other_error(make_net, path, device):
        raise RuntimeError("size mismatch for 0.weight")

    with pytest.raises(RuntimeError, match="size mismatch"):
        loading.load_checked(other_error, checkpoint, CPU, "your own checkpoint")


def test_a_load_onto_another_device_names_the_model_left_behind(checkpoint):
    def fails_on_meta(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
        return net.to(device)[0].weight.sum().item()  # .item() of a meta tensor

    def stays_on_cpu(make_net, path, device):
        return _right_load(make_net, path, CPU)

    def split(make_net, path, device):
        net = _right_load(make_net, path, device)
        net[0].weight = _OnAnotherGpu(torch.zeros(4, 2))
        net[2].weight = nn.Parameter(torch.zeros(2, 4))
        return net

    def one_on_another_gpu(make_net, path, device):
        net = _right_load(make_net, path, device)
        net[0].weight = _OnAnotherGpu(torch.zeros(4, 2))
        return net

    step = loading.check_load_on_another_device
    assert _hint(step, fails_on_meta, checkpoint) == (
        "load_parameters(make_net, path, device) failed for a device other than the CPU "
        "(checked with the meta device): the model stayed on the CPU while the tensors were "
        "loaded onto device. Put the new model on device (to()), before load_state_dict copies "
        "the loaded tensors into it or after"
    )
    tail = (
        ": put the model on the device you are given (to(device)), before load_state_dict or "
        "after it, whatever map_location the tensors were loaded with"
    )
    assert _hint(step, stays_on_cpu, checkpoint) == (
        "asked for device meta, load_parameters returned a model on cpu (the model stayed on "
        "the CPU)" + tail
    )
    assert _hint(step, split, checkpoint) == (
        "asked for device meta, load_parameters returned a model on cpu, cuda:1" + tail
    )
    assert _hint(step, one_on_another_gpu, checkpoint) == (
        "asked for device meta, load_parameters returned a model on cuda:1" + tail
    )
    assert step(_right_load, checkpoint) is None


def test_an_error_that_is_not_about_the_device_is_raised_as_it_is(checkpoint):
    def breaks(make_net, path, device):
        raise RuntimeError("the disk is full")

    with pytest.raises(RuntimeError, match="the disk is full"):
        loading.check_load_on_another_device(breaks, checkpoint)


def test_a_copy_out_of_a_meta_tensor_does_nothing_and_every_other_copy_copies():
    into = torch.zeros(3)
    with loading.MetaCopiesAllowed():
        assert into.copy_(torch.empty(3, device=META)) is into
        assert into.tolist() == [0.0, 0.0, 0.0]
        into.copy_(torch.tensor([1.0, 2.0, 3.0]))
        assert into.tolist() == [1.0, 2.0, 3.0]
        meta = torch.empty(3, device=META)
        assert meta.copy_(torch.empty(3, device=META)).is_meta
        assert torch.add(into, 1).tolist() == [2.0, 3.0, 4.0]


# --- a checkpoint that runs code ----------------------------------------------------------


def test_the_checkpoint_that_runs_code_does_so_only_when_fully_unpickled(tmp_path):
    loading.UNPICKLED.clear()
    note = pickle.loads(pickle.dumps(loading.CodeInAFile()))
    assert note == "this string was made by code inside the checkpoint"
    assert loading.UNPICKLED == ["ran"]
    loading.UNPICKLED.clear()
    path = tmp_path / "note.pt"
    torch.save({"note": loading.CodeInAFile()}, path)
    with pytest.raises(pickle.UnpicklingError):
        torch.load(path, weights_only=True)
    assert loading.UNPICKLED == []


def test_a_load_that_runs_code_is_named_even_if_it_needs_a_real_device(tmp_path):
    def unsafe_and_reads_the_device(make_net, path, device):
        kind = device.type  # an answer may read the device before it loads
        state = torch.load(path, map_location=kind, weights_only=False)
        state.pop("note", None)
        net = make_net().to(device)
        net.load_state_dict(state)
        return net

    assert _hint(loading.check_load_runs_no_code, unsafe_and_reads_the_device, tmp_path, []) == (
        "load_parameters ran code stored in a checkpoint: it loads with weights_only=False, "
        "which unpickles arbitrary Python objects, so a checkpoint from someone else can run "
        "code on your machine. A state_dict holds tensors only: torch.load(path, "
        "map_location=device, weights_only=True) (the default since torch 2.6)"
    )
    passed = []
    loading.check_load_runs_no_code(_right_load, tmp_path, passed)
    assert passed == [
        "load_parameters refuses to run code stored in a checkpoint (weights_only=True)"
    ]


# --- round 19: keys, string devices, a map_location function, a cache ---------------------


def test_a_saved_dict_with_other_keys_is_named_by_its_keys(tmp_path):
    def prefixed(net, path):
        torch.save(net.state_dict(prefix="net."), path)

    def wrapped(net, path):
        torch.save({"model": net.state_dict(), "epoch": 3}, path)

    assert _hint(parts._check_save, prefixed, CPU, tmp_path, []) == (
        "the file holds the model's tensors under other keys: every key starts with 'net.' "
        "('net.0.weight' where net.state_dict() has '0.weight'). Save net.state_dict() as it "
        "is, with its own keys: load_state_dict matches tensors by key, and with strict=False a "
        "model whose keys match none of them loads nothing and says nothing"
    )
    assert _hint(parts._check_save, wrapped, CPU, tmp_path, []) == (
        "the file does not hold net.state_dict(): save exactly that dictionary of tensors (its "
        "keys are model, epoch; net.state_dict()'s are 0.weight, 0.bias, 2.weight, 2.bias)"
    )


def test_a_device_given_as_a_string_and_a_map_location_function(checkpoint):
    def needs_a_device(make_net, path, device):
        return _right_load(make_net, path, device if device.type == "cpu" else device)

    assert _hint(loading.load_checked, needs_a_device, checkpoint, "cpu", "yours") == (
        "load_parameters(make_net, path, 'cpu') raised AttributeError: the device may come as a "
        "string, as the exercise's own cell passes 'cpu'. Make it a device first "
        "(torch.device(device)), or pass it on as it is to to() and map_location, which take both"
    )

    def by_function(make_net, path, device):  # storage.to(meta) has no module to copy with
        target = torch.device(device)
        state = torch.load(
            path, map_location=lambda s, location: s.to(device=target), weights_only=True
        )
        net = make_net()
        net.load_state_dict(state)
        return net.to(target)

    loading.check_load_on_another_device(by_function, checkpoint)


def test_a_load_that_keeps_what_it_loaded_is_named(tmp_path):
    torch.save(seeded_net(1).state_dict(), tmp_path / "a.pt")
    kept: dict = {}

    def cached(make_net, path, device):
        key = (str(path), str(device))
        if key not in kept:
            kept[key] = _right_load(make_net, path, device)
        return kept[key]

    first = cached(make_net, tmp_path / "a.pt", "cpu")
    assert _hint(loading.check_load_reads_the_file, cached, tmp_path / "a.pt", first, []) == (
        "loaded again after the file at path was written anew, load_parameters returned the "
        "same model object as before: it keeps what it loaded (a cache keyed by path and "
        "device), which goes stale when a checkpoint is saved again at the same path (every "
        "epoch, say). Build a new model with make_net() and read the file on every call"
    )
    passed = []
    first = _right_load(make_net, tmp_path / "a.pt", "cpu")
    loading.check_load_reads_the_file(_right_load, tmp_path / "a.pt", first, passed)
    assert passed == [
        "load_parameters reads the file on every call: written again, it loads what it holds now"
    ]


def test_a_load_that_keeps_fresh_weights_is_named_whatever_seed_the_caller_left():
    """A fresh model drawn right after the caller's torch.manual_seed(2) is the checkpoint's
    own seeded net: the checker draws from a seed of its own before the load."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import test_redteam

    answer = Path(__file__).parent / "redteam" / "03.parameters" / "r13_w11_state_dict_update.py"
    torch.manual_seed(2)
    result = test_redteam.grade(answer)
    assert result["hint"].startswith("the loaded parameters differ from the checkpoint's")


def _halve(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def test_halving_keeps_gradients_and_works_in_float64_and_on_another_device():
    def clears_grads(net):
        _halve(net)
        net.zero_grad()

    def through_float(net):
        with torch.no_grad():
            net[0].weight.float().mul_(0.5)

    def factor_on_cpu(net):
        with torch.no_grad():
            net[0].weight.mul_(torch.full(net[0].weight.shape, 0.5))

    assert _hint(halving.check_halve, clears_grads, CPU, []).startswith(
        "halve_first_layer changed the model's gradients (.grad cleared or zeroed, as "
        "net.zero_grad() does): only the weight's values should change"
    )
    assert _hint(halving.check_halve, through_float, CPU, []).startswith(
        "net[0].weight of a float64 model (net.double()) was not halved: .float(), "
        ".to(dtype) or .type() return a copy when the dtype differs"
    )
    assert _hint(halving.check_halve, factor_on_cpu, CPU, []).startswith(
        "halve_first_layer mixes devices: mul_ got the weight and a tensor on the CPU "
        "(checked with the model on the meta device, which stands for a GPU"
    )
    passed: list[str] = []
    halving.check_halve(_halve, CPU, passed)
    assert len(passed) == 1


def test_saving_leaves_the_mode_alone_and_keeps_buffers(tmp_path):
    def sets_eval(net, path):
        net.eval()
        torch.save(net.state_dict(), path)

    def parameters_only(net, path):
        torch.save({k: p.detach() for k, p in net.named_parameters()}, path)

    assert _hint(parts._check_save, sets_eval, CPU, tmp_path, []).startswith(
        "save_parameters left the model in another mode (net.eval() or net.train(False)): "
        "only read the model"
    )
    assert _hint(parts._check_save, parameters_only, CPU, tmp_path, []).startswith(
        "saved from a model with a BatchNorm layer, the file lacks its buffers "
        "(1.running_mean, 1.running_var, 1.num_batches_tracked): named_parameters() and "
        "parameters() leave buffers out"
    )


def test_a_model_loaded_in_eval_mode_is_named():
    def save(net, path):
        torch.save(net.state_dict(), path)

    def loads_eval(make_net, path, device):
        return _right_load(make_net, path, device).eval()

    said = _hint(parts.check_parameters, (_halve, save, loads_eval), [])
    assert said.startswith(
        "load_parameters returned the model in eval mode, where make_net() builds it in "
        "train mode: return it as make_net() built it"
    )


def test_a_file_of_other_keys_shows_four_of_them_and_says_when_there_are_more():
    wanted = ["0.weight", "0.bias"]
    four = {k: torch.zeros(1) for k in ("a", "b", "c", "d")}
    assert loading.keys_hint(four, wanted) == (
        "the file does not hold net.state_dict(): save exactly that dictionary of tensors (its "
        "keys are a, b, c, d; net.state_dict()'s are 0.weight, 0.bias)"
    )
    assert loading.keys_hint({**four, "e": torch.zeros(1)}, wanted).endswith(
        "(its keys are a, b, c, d, ...; net.state_dict()'s are 0.weight, 0.bias)"
    )
    assert (
        loading.keys_hint([1, 2], wanted)
        == loading.keys_hint({}, wanted)
        == ("the file does not hold net.state_dict(): save exactly that dictionary of tensors")
    )


def test_a_layer_moved_by_the_save_is_named_as_that_layer_and_the_model_once(tmp_path):
    def moves_the_first_layer(net, path):
        net[0].cpu()  # "to save it from the CPU"; on a GPU the model is then split
        torch.save(net.state_dict(), path)

    assert _hint(parts._check_save, moves_the_first_layer, CPU, tmp_path, []).startswith(
        "save_parameters moved its layer net[0] to the CPU (net[0].cpu()): the model being "
        "trained must stay on its GPU."
    )
    net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 2)))
    with parts._conversions_of(net) as seen:
        net.cpu()  # converts each layer too: one conversion, the model's
        assert seen == [CPU] and seen.layer is None
        net[1][1].double()
        assert seen == [CPU, "torch.float64"] and seen.layer == "1.1"
        nn.Linear(2, 2).cpu()  # not a layer of the model
    assert len(seen) == 2 and not seen.inside


@pytest.mark.parametrize(
    "answer",
    [lambda net: None, (_halve, _right_load), (_halve, "save_parameters", _right_load)],
    ids=["a_function_alone", "two_functions", "a_name_not_a_function"],
)
def test_what_is_not_three_functions_is_named_with_the_call_to_make(answer):
    assert _hint(parts.check_parameters, answer, []) == (
        "pass the three functions as a tuple: check('03.parameters', "
        "(halve_first_layer, save_parameters, load_parameters))"
    )


def test_a_save_that_leaves_a_default_changed_is_named_as_the_saves(tmp_path):
    def saves_in_float64(net, path):
        torch.set_default_dtype(torch.float64)  # "for a precise checkpoint", never set back
        torch.save(net.state_dict(), path)

    try:
        hint = _hint(parts._check_save, saves_in_float64, CPU, tmp_path, [])
    finally:
        torch.set_default_dtype(torch.float32)
    assert hint.startswith(
        "save_parameters leaves a process-wide default of torch changed "
        "(torch.set_default_dtype(torch.float64))"
    ), hint


def test_a_halving_that_changes_the_mode_or_the_dtype_is_named_for_what_it_did():
    def halves_in_eval_mode(net):
        net.eval()  # "no dropout while editing"
        with torch.no_grad():
            net[0].weight.mul_(0.5)

    def calls_half(net):
        net[0].half()  # "halve" read as half precision

    assert _hint(halving.check_halve, halves_in_eval_mode, CPU, []) == (
        "halve_first_layer left the model in another mode (net.eval() or net.train(False)): "
        "only change the weight. The caller's training would go on with dropout off and "
        "BatchNorm's statistics frozen"
    )
    assert _hint(halving.check_halve, calls_half, CPU, []) == (
        "net[0].weight is now float16, not float32: .half() converts to float16 (half "
        "precision), it does not halve the values. Multiply the weight by 0.5 in place (mul_) "
        "under torch.no_grad()"
    )
