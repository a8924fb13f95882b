"""d2lgpu.models: shapes, the no-BatchNorm/no-dropout promise, parameter counts, bad input."""

import pytest
import torch
from torch import nn

from d2lgpu import models

pytestmark = pytest.mark.usefixtures("one_thread")  # tests/conftest.py


@pytest.mark.parametrize("num_classes, width", [(10, 16), (3, 4)])
def test_small_cnn_output_shape(num_classes, width):
    net = models.SmallCNN(num_classes=num_classes, width=width)
    assert net(torch.rand(5, 1, 28, 28)).shape == (5, num_classes)
    assert net(torch.rand(2, 1, 32, 32)).shape == (2, num_classes)  # the adaptive pool at work


def test_small_cnn_has_no_batchnorm_or_dropout_and_is_deterministic():
    net = models.SmallCNN()
    banned = (nn.modules.batchnorm._BatchNorm, nn.modules.dropout._DropoutNd)
    assert not [m for m in net.modules() if isinstance(m, banned)]
    net.train()
    x = torch.rand(4, 1, 28, 28)
    assert torch.equal(net(x), net(x))  # no randomness or running statistics in training mode


def test_small_cnn_width_scales_the_parameter_count():
    assert models.count_parameters(models.SmallCNN(width=16)) == 117_066
    assert models.count_parameters(models.SmallCNN(width=32)) > 3 * 117_066


def test_mlp_shapes_and_layers():
    net = models.MLP(hidden=(64, 32), num_classes=4)
    assert net(torch.rand(3, 1, 28, 28)).shape == (3, 4)
    linears = [m for m in net if isinstance(m, nn.Linear)]
    assert [(m.in_features, m.out_features) for m in linears] == [(784, 64), (64, 32), (32, 4)]
    assert models.MLP(hidden=())(torch.rand(2, 784)).shape == (2, 10)  # softmax regression


def test_resnet18_fashion_takes_one_channel_28x28():
    net = models.resnet18_fashion(num_classes=7).eval()
    assert net.conv1.in_channels == 1 and net.conv1.kernel_size == (3, 3)
    assert net.conv1.stride == (1, 1) and isinstance(net.maxpool, nn.Identity)
    with torch.inference_mode():
        assert net(torch.rand(2, 1, 28, 28)).shape == (2, 7)
    assert 11_000_000 < models.count_parameters(net) < 11_300_000


def test_count_parameters():
    net = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))
    assert models.count_parameters(net) == 8 + 3
    net[0].requires_grad_(False)
    assert models.count_parameters(net, trainable_only=True) == 3
    assert models.count_parameters(net) == 11


def test_bad_arguments_name_the_argument():
    with pytest.raises(ValueError, match="width must be an int >= 1, got 0"):
        models.SmallCNN(width=0)
    with pytest.raises(ValueError, match="num_classes must be an int >= 1, got 2.5"):
        models.SmallCNN(num_classes=2.5)
    with pytest.raises(ValueError, match="hidden must be a sequence of ints >= 1, got 256"):
        models.MLP(hidden=256)
    with pytest.raises(ValueError, match=r"hidden\[1\] must be an int >= 1, got -1"):
        models.MLP(hidden=(128, -1))
    with pytest.raises(ValueError, match="num_classes"):
        models.resnet18_fashion(num_classes=0)
    with pytest.raises(TypeError, match="net must be a torch.nn.Module"):
        models.count_parameters([torch.zeros(3)])


def test_linear_stack_is_depth_linear_layers_of_the_given_width():
    net = models.linear_stack(8)
    assert [m.out_features for m in net if isinstance(m, torch.nn.Linear)] == [8, 8, 8]
    assert sum(isinstance(m, torch.nn.ReLU) for m in net) == 2
    assert len(models.linear_stack(4, depth=1)) == 1
    with pytest.raises(ValueError, match="depth must be an int >= 1, got 0"):
        models.linear_stack(4, depth=0)


def test_linear_stack_cost_counts_flops_params_and_bytes():
    from d2lgpu.models import OPTIMIZER_BYTES_PER_PARAM, linear_stack, linear_stack_cost

    cost = linear_stack_cost(8, 4, depth=2)
    assert cost["flops"] == 6 * 4 * 8 * 8 * 2
    assert cost["params"] == sum(p.numel() for p in linear_stack(8, depth=2).parameters())
    assert cost["optimizer_bytes"] == OPTIMIZER_BYTES_PER_PARAM * cost["params"] == 40 * 144
    assert cost["activation_bytes"] == 4 * 4 * 8 * 2
    with pytest.raises(ValueError, match="batch must be an int >= 1"):
        linear_stack_cost(8, 0)


def test_the_amp_chapters_gpu_size_is_bound_by_arithmetic_and_the_recipes_is_not():
    # Chapter 4 sizes its GPU model so that 16 bits pay: on an H100's datasheet the bf16
    # products must outweigh the optimizer's memory traffic, which 16 bits do not shrink.
    from d2lgpu.hardware import peak_bandwidth, peak_flops
    from d2lgpu.models import amp_sizes, linear_stack_cost, step_time_bound

    h100 = "NVIDIA H100 80GB HBM3"
    bf16, fp32, bw = peak_flops(h100, "bf16"), peak_flops(h100, "fp32"), peak_bandwidth(h100)
    width, batch, lr = amp_sizes("cuda")
    ours, recipe = linear_stack_cost(width, batch), linear_stack_cost(4096, 512)
    assert ours["flops"] / bf16 > 5 * ours["optimizer_bytes"] / bw
    assert recipe["flops"] / bf16 < recipe["optimizer_bytes"] / bw
    bound = step_time_bound(ours, fp32, bw) / step_time_bound(ours, bf16, bw)
    assert bound > 2.5 * 4  # room for the 2.5x the chapter asserts, and real kernels' overheads
    assert ours["activation_bytes"] > 8 * recipe["activation_bytes"]  # autocast halves these
    assert amp_sizes("cpu") == (128, 64, 1e-3) and amp_sizes(torch.device("cuda:1"))[0] == width
    assert 0 < lr < 1e-2
    with pytest.raises(ValueError, match="peak_flops and bandwidth must be > 0"):
        step_time_bound(ours, 0, bw)
