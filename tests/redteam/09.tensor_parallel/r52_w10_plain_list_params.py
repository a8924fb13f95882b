# expect: fail keeps the shards as Parameters in a plain Python list: the module registers no parameters, so the SGD step trains nothing
# hint: parameter|register|shard|SGD|step|ParameterList
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
        self.shards = [
            nn.Parameter(t.detach().clone())
            for t in (fc1.weight[mine], fc1.bias[mine], fc2.weight[:, mine], fc2.bias)
        ]
        self.act = act

    def forward(self, x):
        w1, b1, w2, b2 = self.shards
        x = _F.apply(x)
        h = self.act(F.linear(x, w1, b1))
        return _G.apply(F.linear(h, w2)) + b2


answer = ParallelMLP
