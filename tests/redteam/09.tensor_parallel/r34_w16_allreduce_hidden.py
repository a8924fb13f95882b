# expect: fail all-reduces inside the column-parallel layer: gathers the full hidden activations (zero-padded, summed over ranks) and multiplies by its own fc2 columns only after picking its units back; output right, one extra all-reduce in the wrong place
# hint: column|hidden|(two|2|extra|one).{0,40}all.?reduce
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad

class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        self.h = fc1.out_features
        mine = torch.chunk(torch.arange(self.h), world)[rank]
        self.lo, self.hi = int(mine[0]), int(mine[-1]) + 1
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        local = self.act(x @ self.w1.T + self.b1)
        full = torch.zeros(x.shape[0], self.h)
        full[:, self.lo:self.hi] = local
        full = _G.apply(full)  # every rank now sees every hidden unit
        h = full[:, self.lo:self.hi]
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
