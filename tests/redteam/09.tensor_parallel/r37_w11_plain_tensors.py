# expect: fail shards kept as plain tensors with requires_grad, not nn.Parameters: the module has no parameters to train
# hint: param|nn\.Parameter|regist|module has no|optimi[sz]er|SGD|step
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """Identity forward; the input gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """Sum over the ranks forward; identity backward."""

    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = fc1.weight.detach()[mine].clone().requires_grad_()
        self.b1 = fc1.bias.detach()[mine].clone().requires_grad_()
        self.w2 = fc2.weight.detach()[:, mine].clone().requires_grad_()
        self.b2 = fc2.bias.detach().clone().requires_grad_()
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        hidden = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(hidden, self.w2)) + self.b2
