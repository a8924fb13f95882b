# expect: pass
# hint: 
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class AllReduceForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        (out,) = dist.all_reduce(t.clone(), async_op=True).get_future().wait()
        return out

    @staticmethod
    def backward(ctx, g):
        return g


class AllReduceBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.clone()

    @staticmethod
    def backward(ctx, g):
        (out,) = dist.all_reduce(g.clone(), async_op=True).get_future().wait()
        return out


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        rows = torch.chunk(torch.arange(fc1.weight.shape[0]), world)[rank]
        self.act = act
        self.register_parameter("w1", nn.Parameter(fc1.weight.detach()[rows].clone()))
        self.register_parameter("b1", nn.Parameter(fc1.bias.detach()[rows].clone()))
        self.register_parameter("w2", nn.Parameter(fc2.weight.detach().t()[rows].t().clone()))
        self.register_parameter("b2", nn.Parameter(fc2.bias.detach().clone()))

    def forward(self, x):
        x = AllReduceBackward.apply(x)
        y = torch.addmm(self.b1, x, self.w1.t())
        z = torch.mm(self.act(y), self.w2.t())
        return AllReduceForward.apply(z).add(self.b2)
