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


def test_without_pretending_the_real_devices_are_followed():
    with DeviceWatch(pretend=False) as watch:
        x = torch.ones(2)
        assert watch.device_of(x) is None and not watch.on_device(x)
        assert watch.device_of(torch.ones(2, device="meta")) is None
        assert x.to("cpu") is x and x.device.type == "cpu"
