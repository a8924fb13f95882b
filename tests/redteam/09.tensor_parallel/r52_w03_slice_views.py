# expect: fail shards taken as basic slices (views) with no clone: each keeps the whole weight's storage alive (and shares it with the mlp)
# hint: view|storage|clone|copy|bytes|keeps
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """f: identity forward, the input gradient summed over the ranks in backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: the shares summed in forward, the gradient passed on in backward."""

    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(mine[0]), int(mine[-1]) + 1  # contiguous: a slice is enough
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach())
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2


answer = ParallelMLP
