# expect: pass transposed (in, out) copies used with torch.addmm, autograd Functions in the forward/setup_context style, and one parametrized exchange class for both f and g
# hint:
# name: ShardedMLP
import torch
import torch.distributed as dist
from torch import nn


def _reduced(t):
    t = t.contiguous().clone()
    dist.all_reduce(t)
    return t


class _Exchange(torch.autograd.Function):
    """sum_forward=True: Megatron's g (sum forward, identity backward);
    False: its f (identity forward, sum backward)."""

    @staticmethod
    def forward(t, sum_forward):
        return _reduced(t) if sum_forward else t.view_as(t)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.sum_forward = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return (grad if ctx.sum_forward else _reduced(grad)), None


class ShardedMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        idx = torch.chunk(torch.arange(fc1.weight.shape[0]), world)[rank]
        self.act = act
        # (in, out) layouts: fc1's rows become columns, fc2's columns become rows
        self.a = nn.Parameter(fc1.weight.detach().t()[:, idx].contiguous().float())
        self.a_bias = nn.Parameter(fc1.bias.detach().index_select(0, idx).float())
        self.b = nn.Parameter(fc2.weight.detach().t()[idx].contiguous().float())
        self.b_bias = nn.Parameter(fc2.bias.detach().clone().float())

    def forward(self, x):
        x = _Exchange.apply(x, False)
        hidden = self.act(torch.addmm(self.a_bias, x, self.a))
        return _Exchange.apply(hidden @ self.b, True) + self.b_bias
