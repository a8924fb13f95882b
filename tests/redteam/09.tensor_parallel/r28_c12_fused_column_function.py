# expect: pass
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn


class ColumnLinear(torch.autograd.Function):
    """x @ w.T + b for this rank's hidden units; backward also sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x, w, b):
        ctx.save_for_backward(x, w)
        return torch.addmm(b, x.reshape(-1, x.shape[-1]), w.t()).reshape(*x.shape[:-1], -1)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        g2 = grad.reshape(-1, grad.shape[-1])
        grad_x = (g2 @ w).reshape(x.shape)
        dist.all_reduce(grad_x)  # each rank holds only its hidden units' share of it
        grad_w = g2.t() @ x.reshape(-1, x.shape[-1])
        return grad_x, grad_w, g2.sum(0)


class RowSum(torch.autograd.Function):
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
        fc1, act, fc2 = mlp
        units = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach().index_select(0, units))
        self.b1 = nn.Parameter(fc1.bias.detach().index_select(0, units))
        self.w2 = nn.Parameter(fc2.weight.detach().index_select(1, units))
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h = self.act(ColumnLinear.apply(x, self.w1, self.b1))
        return RowSum.apply(h @ self.w2.t()) + self.b2
