# expect: fail the sums go through torch.distributed._functional_collectives.all_reduce (the "functional" collective, waited with wait_tensor) inside f and g, not through dist.all_reduce(...) as the prompt requires: the values are right, the exchanges bypass dist.all_reduce
# hint: dist\.all_reduce|functional|_functional_collectives|funcol|wait_tensor|count|call.*through
import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
from torch import nn


def _sum(t):
    return funcol.wait_tensor(funcol.all_reduce(t.contiguous(), "sum", dist.group.WORLD))


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return _sum(grad)


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        return _sum(partial)

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        h = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
