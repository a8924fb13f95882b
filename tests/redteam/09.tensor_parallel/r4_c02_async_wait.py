# expect: pass
# hint: 
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _Sum(torch.autograd.Function):
    """One Function for both exchanges: `forward_sum` says which way the all-reduce goes."""
    @staticmethod
    def forward(ctx, t, forward_sum):
        ctx.forward_sum = forward_sum
        if not forward_sum:
            return t.clone()
        t = t.clone()
        dist.all_reduce(t, op=dist.ReduceOp.SUM, async_op=True).wait()
        return t

    @staticmethod
    def backward(ctx, grad):
        if ctx.forward_sum:
            return grad, None
        grad = grad.contiguous().clone()
        work = dist.all_reduce(grad, async_op=True)
        work.wait()
        return grad, None


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        n = fc1.out_features
        mine = torch.chunk(torch.arange(n), world)[rank]
        lo, size = int(mine[0]), len(mine)
        self.activation = act
        self.params = nn.ParameterList([
            fc1.weight.detach().narrow(0, lo, size).clone(),
            fc1.bias.detach().narrow(0, lo, size).clone(),
            fc2.weight.detach().narrow(1, lo, size).clone(),
            fc2.bias.detach().clone(),
        ])

    def forward(self, x):
        w1, b1, w2, b2 = self.params
        x = _Sum.apply(x, False)
        partial = self.activation(x @ w1.t() + b1) @ w2.t()
        return _Sum.apply(partial, True) + b2
