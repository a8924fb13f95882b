# expect: pass
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _GBias(torch.autograd.Function):
    """Sums the shares, then adds the bias once; backward: the gradient through, and the bias's."""

    @staticmethod
    def forward(ctx, partial, bias):
        out = partial.clone()
        dist.all_reduce(out)
        return out + bias

    @staticmethod
    def backward(ctx, grad):
        return grad, grad.reshape(-1, grad.shape[-1]).sum(0)


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
        h = self.act(F.linear(_F.apply(x), self.w1, self.b1))
        return _GBias.apply(F.linear(h, self.w2), self.b2)
