"""d2lgpu._device_watch: the pretend GPUs follow each tensor's device, record mixes and host
reads, and leave alone what moves tensors between devices on purpose (to(), autograd)."""

import pytest
import torch
from torch import nn

from d2lgpu._device_watch import PRETEND_DEVICE, DeviceWatch

CUDA0, CUDA1 = torch.device("cuda", 0), torch.device("cuda", 1)


@pytest.fixture
def watch():
    with DeviceWatch(pretend=True) as w:
        yield w


def test_put_declares_a_tensor_on_cuda_0_unless_another_gpu_is_named(watch):
    a, b, c = torch.ones(2), torch.ones(2), torch.ones(2)
    watch.put(a), watch.put(b, "cuda:1"), watch.put(c, "cuda")
    assert (a.device, b.device, c.device) == (CUDA0, CUDA1, CUDA0)
    assert a.is_cuda and not a.is_cpu and PRETEND_DEVICE == CUDA0
    assert watch.device_of(torch.ones(2)) is None and watch.device_of(3) is None
    assert (a + a).device == CUDA0 and (b * 2).device == CUDA1  # results follow their inputs


@pytest.mark.parametrize(
    "move, where",
    [
        (lambda x, other: x.to("cuda:1"), CUDA1),
        (lambda x, other: x.to(torch.device("cuda", 1)), CUDA1),
        (lambda x, other: x.to(other), CUDA1),  # the device of another tensor
        (lambda x, other: x.to(other.device, non_blocking=True), CUDA1),
        (lambda x, other: x.cuda(1), CUDA1),
        (lambda x, other: x.cuda(), CUDA0),
        (lambda x, other: x.to("cuda"), CUDA0),
        (lambda x, other: torch.zeros(2, device=other.device), CUDA1),
        (lambda x, other: torch.zeros_like(x, device="cuda:1"), CUDA1),
    ],
)
def test_every_way_of_sending_a_tensor_to_a_gpu_puts_it_there(watch, move, where):
    other = watch.put(torch.ones(2), "cuda:1")
    moved = move(torch.ones(2), other)
    assert moved.device == where and watch.mixed == [] and watch.reads == []


def test_a_copy_to_another_gpu_is_a_new_tensor_and_to_the_same_one_is_the_tensor(watch):
    x = watch.put(torch.ones(2))
    assert x.to("cuda:0") is x and x.cuda() is x  # as torch: already there
    y = x.to("cuda:1")
    assert y is not x and (x.device, y.device) == (CUDA0, CUDA1)  # x stays where it was


def test_tensors_on_two_gpus_or_a_gpu_and_the_cpu_in_one_operation_are_mixes(watch):
    a, b = watch.put(torch.ones(3)), watch.put(torch.ones(3), "cuda:1")
    a + b
    b * torch.ones(3)
    a + torch.ones(())  # a 0-d CPU tensor is a scalar: allowed, as in torch
    assert watch.mixed == [
        "add got tensors on cuda:0 and on cuda:1",
        "mul got a tensor on cuda:1 and torch.ones(...) without device=",
    ]


def test_a_mix_with_the_first_gpu_keeps_its_wording(watch):
    watch.put(torch.ones(3)) + torch.zeros(3)
    assert watch.mixed == ["add got a device tensor and torch.zeros(...) without device="]


def test_autograd_across_two_gpus_is_no_mix_and_each_gradient_is_on_its_parameters_gpu(watch):
    first, second = nn.Linear(3, 3), nn.Linear(3, 2)
    for p in first.parameters():
        watch.put(p)
    for p in second.parameters():
        watch.put(p, "cuda:1")
    h = first(torch.ones(4, 3).to("cuda:0"))
    loss = second(h.to("cuda:1")).sum()
    grads = torch.autograd.grad(
        loss, [*first.parameters(), *second.parameters()], retain_graph=True
    )
    assert [g.device for g in grads] == [CUDA0, CUDA0, CUDA1, CUDA1]
    loss.backward()
    assert [p.grad.device for p in first.parameters()] == [CUDA0, CUDA0]
    assert watch.mixed == [] and h.device == CUDA0  # the copy did not move h itself
    second(h)  # stage 1's output fed to stage 2 without the copy: a mix
    assert watch.mixed == ["linear got tensors on cuda:0 and on cuda:1"]


def test_reads_of_device_values_on_the_host_are_recorded(watch):
    x = watch.put(torch.arange(3.0), "cuda:1")
    x.sum().item(), x.cpu(), x.to("cpu"), float(x[0])
    torch.arange(3.0).sum().item()  # a CPU value: no read
    assert watch.reads == ["item()", ".cpu()", ".to('cpu')", "__float__"]
    assert watch.read_numel == 1 + 3 + 3 + 1  # the values each read moved, added up


def test_without_pretending_the_real_devices_are_followed():
    with DeviceWatch(pretend=False) as watch:
        x = torch.ones(2)
        assert watch.device_of(x) is None and not watch.on_device(x)
        assert watch.device_of(torch.ones(2, device="meta")) is None
        assert x.to("cpu") is x and x.device.type == "cpu"


def test_every_host_read_of_a_device_value_is_named(watch):
    x = watch.put(torch.arange(4.0))
    x.tolist(), x.cpu(), bool(x.sum() > 0), int(x[1]), f"{x[0]:.2f}", repr(x)
    torch.equal(x, x), x.nonzero(), x.unique()
    assert watch.reads == [
        *("tolist()", ".cpu()", "__bool__", "__int__", "__format__", "__repr__"),
        *("equal()", "nonzero()", "unique()"),
    ]


def test_numpy_of_a_device_tensor_raises_as_torch_does_on_a_gpu(watch):
    import numpy as np

    x = watch.put(torch.arange(4.0), "cuda:1")
    with pytest.raises(TypeError) as on_meta:  # torch's own words, for a device it has here
        torch.empty(1, device="meta").numpy()
    for convert in (lambda: x.numpy(), lambda: np.asarray(x), lambda: (x * 2).numpy()):
        with pytest.raises(TypeError) as raised:
            convert()
        assert str(raised.value) == str(on_meta.value).replace("meta", "cuda:1")
    assert x.cpu().numpy().tolist() == [0.0, 1.0, 2.0, 3.0]  # after a copy to the host: allowed
    assert watch.reads == [".cpu()"]


def test_one_device_tensor_made_a_tensor_is_read_only_where_it_goes_to_the_cpu(watch):
    x = watch.put(torch.arange(3.0))
    torch.as_tensor(x), torch.asarray(x), torch.as_tensor(x, device=x.device)  # x, on its GPU
    torch.as_tensor(x, dtype=torch.float64)  # a cast there
    assert watch.reads == []
    torch.as_tensor(x, device="cpu"), torch.asarray(obj=x, device=torch.device("cpu"))
    assert watch.reads == [
        "torch.as_tensor() of a list of device tensors",
        "torch.asarray() of a list of device tensors",
    ]


def test_a_tensor_built_from_device_values_reads_each_of_them(watch):
    x = watch.put(torch.arange(3.0))
    torch.tensor([x[0], x[1]]), torch.as_tensor([x[2]]), torch.asarray([x[0]])
    torch.tensor([x[0]], device="cpu")  # made on the CPU: still a read of x[0]
    assert watch.reads == [
        "torch.tensor() of a list of device tensors",
        "torch.tensor() of a list of device tensors",
        "torch.as_tensor() of a list of device tensors",
        "torch.asarray() of a list of device tensors",
        "torch.tensor() of a list of device tensors",
    ]
    watch.reads.clear()
    torch.tensor(data=[x[0]]), torch.asarray(obj=[x[1]])  # the data given by keyword
    torch.as_tensor(data=x, device="cpu"), torch.asarray(obj=x, device="cpu")  # to the CPU
    torch.as_tensor(data=x, device="cuda:1")  # a copy between devices: no read
    assert watch.reads == [
        "torch.tensor() of a list of device tensors",
        "torch.asarray() of a list of device tensors",
        "torch.as_tensor() of a list of device tensors",
        "torch.asarray() of a list of device tensors",
    ]


def test_a_copy_to_the_host_is_a_new_cpu_tensor_and_the_device_one_stays(watch):
    x = watch.put(torch.arange(3.0))
    for y in (x.cpu(), x.to(device="cpu", dtype=torch.float64), x.to(torch.zeros(1))):
        assert y is not x and y.device.type == "cpu" and not watch.on_device(y)
    assert x.to(device="cpu", dtype=torch.float64).dtype == torch.float64
    assert x.device == CUDA0 and watch.reads == [".cpu()", *[".to('cpu')"] * 3]


def test_a_device_value_written_into_a_cpu_tensor_is_a_read_and_leaves_it_on_the_cpu(watch):
    x = watch.put(torch.arange(3.0))
    host = torch.zeros(3)
    host[0] = x[0]
    host.copy_(x)
    assert watch.reads == [
        "__setitem__ of a device value into a CPU tensor (torch.zeros(...) without device=)",
        "copy_ of a device value into a CPU tensor (torch.zeros(...) without device=)",
    ]
    assert not watch.on_device(host) and watch.mixed == []
    x[1] = torch.tensor(5.0)  # a CPU value written into the device: an upload, no read
    x.copy_(torch.ones(3))
    assert len(watch.reads) == 2 and watch.mixed == [] and watch.on_device(x)


def test_a_boolean_mask_on_the_device_is_a_read_and_indices_on_the_cpu_are_no_mix(watch):
    x = watch.put(torch.arange(4.0))
    x[watch.put(torch.tensor([0, 2]))], x[torch.tensor([0, 2])]  # indices: no read, no mix
    torch.arange(4.0)[torch.arange(4.0) > 1]  # a mask on the CPU
    assert watch.reads == [] and watch.mixed == []
    x[x > 1]
    assert watch.reads == ["indexing with a boolean mask"] and watch.mixed == []


def test_a_mix_names_where_its_cpu_tensor_was_made(watch):
    x = watch.put(torch.ones(3))
    made = torch.zeros(3) * 2  # an operation's result keeps its input's origin
    x + made, torch.add(x, other=torch.ones(3, device="cpu"))
    x * torch.zeros_like(x, device="cpu"), x - x.new_zeros(3, device="cpu")
    x + torch.zeros_like(made)  # a copy of a CPU tensor's shape: made where its model was
    assert watch.mixed == [
        "add got a device tensor and torch.zeros(...) without device=",
        "add got a device tensor and torch.ones(..., device='cpu')",
        "mul got a device tensor and torch.zeros_like(..., device='cpu')",
        "sub got a device tensor and .new_zeros(..., device='cpu')",
        "add got a device tensor and torch.zeros(...) without device=",
    ]
    assert watch.reads == []  # making a CPU tensor shaped like a device one waits for nothing
    assert watch.on_device(x.new_zeros(3)) and watch.on_device(torch.zeros_like(x))


def test_a_copy_to_the_host_mixed_back_is_named_a_cpu_tensor(watch):
    x = watch.put(torch.ones(3))
    x + x.cpu(), x * x.to("cpu", torch.float64)  # a copy has no maker of its own to name
    assert watch.mixed == [
        "add got a device tensor and a CPU tensor",
        "mul got a device tensor and a CPU tensor",
    ]


def test_a_cpu_tensor_made_before_the_watch_is_named_a_cpu_tensor():
    made_before = torch.ones(3)
    with DeviceWatch(pretend=True) as watch:
        watch.put(torch.ones(3)) + made_before
    assert watch.mixed == ["add got a device tensor and a CPU tensor"]


@pytest.mark.parametrize(
    "move",
    [
        lambda x, other: x.to(other),  # another tensor's device and dtype
        lambda x, other: x.to("cuda:1", torch.float64),
        lambda x, other: x.to(device="cuda:1", dtype=torch.float64),
        lambda x, other: x.cuda(device=1).double(),
    ],
)
def test_a_copy_to_a_gpu_keeps_the_dtype_it_asks_for(watch, move):
    other = watch.put(torch.ones(2, dtype=torch.float64), "cuda:1")
    x = torch.ones(2)
    moved = move(x, other)
    assert (moved.device, moved.dtype) == (CUDA1, torch.float64)
    assert not watch.on_device(x) and watch.mixed == []


def test_as_tensor_of_a_cpu_tensor_on_a_gpu_copies_it_and_the_cpu_tensor_stays(watch):
    host = torch.ones(2)
    moved = torch.as_tensor(host, device="cuda")
    assert moved is not host and moved.device == CUDA0 and not watch.on_device(host)
    assert torch.as_tensor(moved, device="cuda:0") is moved  # as torch: already there


def _outcome(make):
    """What ``make()`` gives: the device of its tensor, or the error it raises."""
    try:
        return make().device
    except Exception as error:  # compared with what torch raises alone, below
        return type(error), str(error)


def test_without_pretending_a_copy_to_a_gpu_is_torchs_own():
    x = torch.ones(2)
    moves = [lambda: x.to(device="cuda:0"), lambda: torch.zeros(2, device="cuda:0")]
    alone = [_outcome(move) for move in moves]  # a GPU, or the error of a machine without one
    with DeviceWatch(pretend=False):
        assert [_outcome(move) for move in moves] == alone


class _OnGPU(torch.Tensor):
    """A CPU tensor that says it is on cuda:1, as a real GPU's tensor would."""

    @property
    def device(self):
        return CUDA1


def test_without_pretending_a_tensor_on_a_real_gpu_is_followed_by_its_device():
    gpu = torch.ones(3).as_subclass(_OnGPU)
    with DeviceWatch(pretend=False) as watch:
        assert watch.device_of(gpu) == CUDA1 and watch.on_device(gpu)
        gpu + torch.zeros(3)
        gpu.sum().item()
    assert watch.mixed == ["add got a tensor on cuda:1 and torch.zeros(...) without device="]
    assert watch.reads == ["item()"]


def test_the_checkers_watch_sees_reads_in_the_answers_tensor_hooks_during_backward():
    """Autograd runs tensor hooks where no TorchFunctionMode is active: `watching` runs the
    answer's hooks under the watch, their gradients on the hooked tensor's device."""
    from d2lgpu.checks._pretend import watching

    w = torch.ones(3, requires_grad=True)
    before = (torch.Tensor.register_hook, torch.Tensor.register_post_accumulate_grad_hook)
    with watching(True) as watch:
        h = watch.put(w) * 2
        seen: list[float] = []
        h.register_hook(lambda g: seen.append(g.norm().item()))  # a read in backward
        w.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.sum().item()))
        h.sum().backward()
        x = torch.ones(2, requires_grad=True)  # a CPU tensor's hook reads no device value
        x.register_hook(lambda g: seen.append(g.sum().item()))
        (x * 2).sum().backward()
    assert watch.reads == ["item()", "item()"] and len(seen) == 3
    assert (torch.Tensor.register_hook, torch.Tensor.register_post_accumulate_grad_hook) == before


def test_a_gradient_handed_to_autograd_on_another_device_than_its_tensor_is_a_mix(watch):
    layer = nn.Linear(3, 3)
    for p in layer.parameters():
        watch.put(p)
    h = layer(torch.ones(4, 3).to("cuda:0"))
    on_second, on_first = torch.ones(4, 3).to("cuda:1"), torch.ones(4, 3).to("cuda:0")
    h.backward(on_second, retain_graph=True)  # Tensor.backward(gradient)
    torch.autograd.backward([h], [on_second], retain_graph=True)
    torch.autograd.grad(h, [layer.weight], on_second, retain_graph=True)
    h.backward(torch.ones(4, 3), retain_graph=True)  # a CPU gradient for a device tensor
    assert watch.mixed == [
        "backward got a gradient on cuda:1 for a tensor on cuda:0",
        "backward got a gradient on cuda:1 for a tensor on cuda:0",
        "grad got a gradient on cuda:1 for a tensor on cuda:0",
        "backward got a gradient on cpu for a tensor on cuda:0",
    ]
    watch.mixed.clear()
    h.backward(on_first, retain_graph=True)  # on its tensor's device: no mix
    torch.autograd.backward([h.sum()], [torch.ones(())], retain_graph=True)  # a 0-d CPU one
    torch.autograd.grad([h], [layer.bias], [on_first], retain_graph=True)
    h.sum().backward()  # no gradient handed
    assert watch.mixed == []
    on_the_cpu = nn.Linear(3, 3)(torch.ones(4, 3))  # a CPU tensor, handed a device gradient
    on_the_cpu.backward(on_first)
    assert watch.mixed == ["backward got a gradient on cuda:0 for a tensor on cpu"]


def test_a_gradient_handed_to_autograd_by_keyword_on_another_device_is_a_mix(watch):
    layer = nn.Linear(3, 3)
    for p in layer.parameters():
        watch.put(p)
    h = layer(torch.ones(4, 3).to("cuda:0"))
    on_second, on_first = torch.ones(4, 3).to("cuda:1"), torch.ones(4, 3).to("cuda:0")
    torch.autograd.backward(tensors=[h], grad_tensors=[on_second], retain_graph=True)
    torch.autograd.grad(outputs=[h], inputs=[layer.weight], grad_outputs=[on_second],
                        retain_graph=True)  # fmt: skip
    torch.autograd.backward(tensors=[h], grad_tensors=[on_first], retain_graph=True)
    torch.autograd.grad(outputs=[h], inputs=[layer.bias], grad_outputs=[on_first])
    assert watch.mixed == [
        "backward got a gradient on cuda:1 for a tensor on cuda:0",
        "grad got a gradient on cuda:1 for a tensor on cuda:0",
    ]


def test_handed_gradients_pairs_each_tensor_with_its_gradient_and_skips_nones():
    from d2lgpu._device_calls import handed_gradients

    a, b, g = torch.ones(()), torch.ones(2), torch.zeros(2)
    assert handed_gradients("backward", ([a, b],), {"grad_tensors": [None, g]}) == [(b, g)]
    assert handed_gradients("backward", (b,), {"gradient": g}) == [(b, g)]
    assert handed_gradients("grad", ([b], [a]), {"grad_outputs": (g,)}) == [(b, g)]
    assert handed_gradients("backward", (b,), {"gradient": None}) == []
    assert handed_gradients("add", (b, g), {}) == []


def test_a_host_read_of_a_copy_still_under_way_is_a_race_until_a_sync():
    """.to("cpu", non_blocking=True) of device data lands later on a GPU: a host read of it
    before a sync is recorded in ``raced``; a blocking copy, or one waited for, is not."""
    from d2lgpu.checks._pretend import watching

    with watching(True) as watch:
        x = watch.put(torch.arange(3.0))
        late = x.to("cpu", non_blocking=True)
        assert late.tolist() == [0.0, 1.0, 2.0] and float(late[0]) == 0.0
        # late[0] is a view of the copy: it lands with it
        assert watch.raced == ["tolist()", "__float__"] and watch.reads == [".to('cpu')"]
        str(late)
        assert watch.raced == ["tolist()", "__float__", "__repr__"]
        waited = x.to("cpu", non_blocking=True)
        torch.cuda.synchronize()
        (
            waited.tolist(),
            late.tolist(),
            x.to("cpu").tolist(),
            x.cpu().sum().item(),
        )  # landed, blocking
        kept = x.to("cpu", non_blocking=False)
        kept.tolist()
        assert watch.raced == ["tolist()", "__float__", "__repr__"]
    with DeviceWatch(pretend=True) as bare:  # synced() by hand: what a sync calls
        late = bare.put(torch.ones(2)).to("cpu", non_blocking=True)
        bare.synced()
        late.tolist()
        assert bare.raced == []


def test_an_operation_on_a_copy_still_landing_is_a_race_and_its_shape_is_not():
    # round 62: stage 2 on the CPU computing on activations copied with non_blocking=True
    from d2lgpu.checks._pretend import watching

    with watching(True) as watch:
        late = watch.put(torch.arange(6.0)).to("cpu", non_blocking=True)
        late.shape, late.size(0), late.numel(), late.is_contiguous()  # no values read
        view = late.view(2, 3)  # lands with the copy
        assert watch.raced == []
        view.sum()
        assert watch.raced == ["sum()"]
        torch.nn.functional.linear(late, torch.ones(2, 6))
        assert watch.raced == ["sum()", "linear()"]
        torch.cuda.synchronize()
        late + 1, view.sum()  # landed
        assert watch.raced == ["sum()", "linear()"]


def test_a_thread_started_under_the_watch_is_watched_and_a_gpu_tensor_stays_on_its_gpu():
    # round 62: .item() in a thread pool's worker; a tensor cached between two calls
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from d2lgpu.checks._pretend import watching

    with watching(True) as watch:
        x = watch.put(torch.ones(3))
        thread = threading.Thread(target=lambda: x.sum().item())
        thread.start()
        thread.join()
        with ThreadPoolExecutor(1) as pool:
            pool.submit(lambda: float(x[0])).result()
        assert watch.reads == ["item()", "__float__"]
        kept = torch.eye(3, device="cuda:0")  # on the pretend cuda:0
    with watching(True) as later:
        assert later.device_of(kept) == torch.device("cuda", 0)
        a = later.put(torch.ones(3, 3), "cuda:1")
        a @ kept
        assert later.mixed == [
            "matmul got tensors on cuda:1 and on cuda:0, one of them kept from an earlier call"
        ]
        later.put(kept, "cuda:0")  # the caller's own: no longer the answer's kept one
        a @ kept
        assert later.mixed[1] == "matmul got tensors on cuda:1 and on cuda:0"
