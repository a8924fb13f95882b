# expect: fail g's backward divides the gradient by world ("average, as DDP does"): output right, every gradient world times too small
# hint: world|times|too small|scale|x.*grad|input.*gradient|gradient of
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


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
    def forward(ctx, t, world):
        ctx.world = world
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        # the forward summed world copies, so each rank takes its 1/world of the gradient
        return grad / ctx.world, None


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act
        self.world = world

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2), self.world) + self.b2


answer = ParallelMLP
