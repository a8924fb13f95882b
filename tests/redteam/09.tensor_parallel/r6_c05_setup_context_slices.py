# expect: pass
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class Copy(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.clone()

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        total = grad.contiguous().clone()
        dist.all_reduce(total, op=dist.ReduceOp.SUM, group=dist.group.WORLD)
        return total


class Reduce(torch.autograd.Function):
    @staticmethod
    def forward(partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total, op=dist.ReduceOp.SUM, group=dist.group.WORLD)
        return total

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        cut = slice(int(mine[0]), int(mine[-1]) + 1)
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach()[cut].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[cut].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, cut].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        shape = x.shape
        x2 = Copy.apply(x).reshape(-1, shape[-1])
        h = self.act(torch.addmm(self.b1, x2, self.w1.T))
        out = torch.add(Reduce.apply(h @ self.w2.T), self.b2)
        return out.reshape(*shape[:-1], out.shape[-1])
