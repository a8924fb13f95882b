# expect: pass ParameterList shards, einsum, w2 stored transposed, detached clone all-reduced in the Function
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class SumOverRanks(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.detach().contiguous().clone()
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        return total

    @staticmethod
    def backward(ctx, grad_total):
        return grad_total


class SumGradOverRanks(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad_x):
        summed = grad_x.contiguous().clone()
        dist.all_reduce(summed, op=dist.ReduceOp.SUM)
        return summed


class ParallelMLP(nn.Module):
    """Shards as a ParameterList: [w1 rows (h_r, d), b1 (h_r,), w2 cols transposed (h_r, d), b2 (d,)]."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        w1, b1 = mlp[0].weight.detach(), mlp[0].bias.detach()
        w2, b2 = mlp[2].weight.detach(), mlp[2].bias.detach()
        rows = torch.chunk(torch.arange(w1.shape[0]), world)[rank]
        self.shards = nn.ParameterList(
            [
                nn.Parameter(torch.index_select(w1, 0, rows).clone()),
                nn.Parameter(torch.index_select(b1, 0, rows).clone()),
                nn.Parameter(torch.index_select(w2, 1, rows).T.clone()),
                nn.Parameter(b2.clone()),
            ]
        )
        self.activation = mlp[1]
        self.world = world

    def __repr__(self):
        return f"ParallelMLP(shards={[tuple(p.shape) for p in self.shards]}, world={self.world})"

    def forward(self, x):
        w1, b1, w2t, b2 = self.shards
        x = SumGradOverRanks.apply(x)
        hidden = self.activation(torch.einsum("...d,hd->...h", x, w1) + b1)
        total = SumOverRanks.apply(hidden @ w2t)
        return torch.add(total, b2)


answer = ParallelMLP
