# expect: fail x's gradient summed by a hook registered on the caller's x, not an autograd Function: hooks pile up on x call after call
# hint: Function|hook
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """f: passes x on; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: sums the row-parallel shares; backward passes the gradient through."""

    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        if x.requires_grad:
            def summed(grad):
                grad = grad.clone()
                dist.all_reduce(grad)
                return grad

            x.register_hook(summed)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2
