# expect: fail stores the whole unsplit mlp as a submodule (to reach its activation): its full weights become parameters of every rank
# hint: shard|bytes|parameters|whole
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
        self.mlp = mlp  # for its activation
        fc1, _, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _F.apply(x)
        h = self.mlp[1](x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
