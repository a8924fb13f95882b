# expect: fail the slice of hidden units starts at rank * (this rank's own chunk size) and is then cloned: right when h divides evenly, but with torch.chunk's smaller last piece (three ranks) the last rank takes units another rank already has and nobody holds the last ones
# hint: uneven|offset|start|rank \* |last rank|chunk|torch\.chunk|three ranks|units|slice|overlap|smaller
import torch
import torch.distributed as dist
from torch import nn

class _F(torch.autograd.Function):
    """f: x passed on forward; its gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: the row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        size = len(torch.chunk(torch.arange(fc1.out_features), world)[rank])
        lo, hi = rank * size, rank * size + size  # slices, cloned below
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        h = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
