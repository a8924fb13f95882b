# expect: fail an extra all-reduce (average) of the input in forward: two all-reduces per block
# hint: one all-reduce|all-reduces?.{0,40}(forward|input)|two|extra|count
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _Copy(torch.autograd.Function):
    """f: identity forward; backward sums x's gradient over the ranks."""
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _Reduce(torch.autograd.Function):
    """g: sums the shares forward; backward passes the gradient through."""
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
        with torch.no_grad():  # make sure every rank holds the same input
            x = x.clone()
            dist.all_reduce(x)
            x /= dist.get_world_size()
        x = _Copy.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _Reduce.apply(F.linear(h, self.w2)) + self.b2
