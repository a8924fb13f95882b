# expect: pass hook on a view made in forward for the input's gradient, one Function for g
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


def _summed(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class _Reduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        out = t.clone()
        dist.all_reduce(out, op=dist.ReduceOp.SUM)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # the same on every rank already


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp[0], mlp[1], mlp[2]
        idx = torch.chunk(torch.arange(fc1.weight.shape[0]), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[idx].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[idx].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, idx].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        if x.requires_grad:
            x = x.view_as(x)  # a fresh view per call: its hook runs once, for this call only
            x.register_hook(_summed)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _Reduce.apply(F.linear(h, self.w2)) + self.b2


answer = ParallelMLP
