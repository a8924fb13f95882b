# expect: fail fc2's bias added as b2 / world on each rank before the all-reduce: right output, but its gradient is world times too small
# hint: bias
# Wrong: the prompt says the bias is added once, after the sum. b2 / world summed over the
# ranks gives b2 in the output, but b2's gradient is divided by world: the SGD step is off.
import torch
import torch.distributed as dist
from torch import nn


class _CopyToShards(torch.autograd.Function):
    """f: x passes on; its gradient is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _SumShards(torch.autograd.Function):
    """g: the shares summed; the gradient passes on unchanged."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        self.world = world
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        # each rank adds its share of the bias, so the sum holds it exactly once
        return _SumShards.apply(h @ self.w2.T + self.b2 / self.world)


answer = ParallelMLP
