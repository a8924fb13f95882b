# expect: fail hidden units split with torch.tensor_split, not torch.chunk (differs when h % world == 1)
# hint: chunk|hidden unit|shard|bytes
import torch
import torch.distributed as dist
from torch import nn


class CopyToParallel(torch.autograd.Function):
    """f: forward passes x on; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
    """g: forward sums the shares over the ranks; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, activation, fc2 = mlp
        # sizes that differ by at most one, as tensor_split gives
        mine = torch.tensor_split(torch.arange(fc1.out_features), world)[rank]
        # index_select copies; kept as (d, k) and (k, d) so forward needs no transpose
        self.w1_t = nn.Parameter(torch.index_select(fc1.weight.detach(), 0, mine).t().contiguous())
        self.b1 = nn.Parameter(torch.index_select(fc1.bias.detach(), 0, mine))
        self.w2_t = nn.Parameter(torch.index_select(fc2.weight.detach(), 1, mine).t().contiguous())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.activation = activation

    def forward(self, x):
        x = CopyToParallel.apply(x)
        hidden = self.activation(x @ self.w1_t + self.b1)
        return ReduceFromParallel.apply(hidden @ self.w2_t) + self.b2


answer = ParallelMLP
