# expect: pass Megatron f and g autograd Functions, transposed weight copies
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class CopyToParallel(torch.autograd.Function):
    """Megatron's f: identity forward, sum of the input's gradient over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
    """Megatron's g: sum over the ranks forward, gradient passed on unchanged backward."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # stored transposed: x @ w1t, h @ w2t
        self.w1t = nn.Parameter(fc1.weight.detach()[mine].t().contiguous().float())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone().float())
        self.w2t = nn.Parameter(fc2.weight.detach()[:, mine].t().contiguous().float())
        self.b2 = nn.Parameter(fc2.bias.detach().clone().float())
        self.act = act

    def forward(self, x):
        x = CopyToParallel.apply(x)
        h = self.act(x @ self.w1t + self.b1)
        out = ReduceFromParallel.apply(h @ self.w2t)
        return out + self.b2


answer = ParallelMLP
