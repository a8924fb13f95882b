# expect: fail shards kept in float64 for an exact sum (not float32 as the blocks are): twice the bytes per rank
# hint: float32|float64|double|dtype|bytes
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
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # index_select copies; kept as (d, k) and (k, d) so forward needs no transpose
        # kept in float64: the partial sums over the ranks then add up exactly as the unsplit matmul
        self.w1_t = nn.Parameter(torch.index_select(fc1.weight.detach(), 0, mine).t().double())
        self.b1 = nn.Parameter(torch.index_select(fc1.bias.detach(), 0, mine).double())
        self.w2_t = nn.Parameter(torch.index_select(fc2.weight.detach(), 1, mine).t().double())
        self.b2 = nn.Parameter(fc2.bias.detach().double())
        self.activation = activation

    def forward(self, x):
        dtype = x.dtype
        x = CopyToParallel.apply(x).double()
        hidden = self.activation(x @ self.w1_t + self.b1)
        return (ReduceFromParallel.apply(hidden @ self.w2_t) + self.b2).to(dtype)


answer = ParallelMLP
