# expect: pass one autograd Function (setup_context style) with a direction flag for both exchanges, ParameterList
# hint:
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _AllReduce(torch.autograd.Function):
    """Sums over the ranks in forward ("out") or in backward ("in"); the identity the other way."""

    @staticmethod
    def forward(t, where):
        if where == "out":
            t = t.clone()
            dist.all_reduce(t, op=dist.ReduceOp.SUM)
            return t
        return t.view_as(t)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.where = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        if ctx.where == "in":
            grad = grad.clone()
            dist.all_reduce(grad, op=dist.ReduceOp.SUM)
        return grad, None


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        idx = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.shards = nn.ParameterList(
            [
                nn.Parameter(fc1.weight.detach().index_select(0, idx).clone()),
                nn.Parameter(fc1.bias.detach().index_select(0, idx).clone()),
                nn.Parameter(fc2.weight.detach().index_select(1, idx).clone()),
                nn.Parameter(fc2.bias.detach().clone()),
            ]
        )

    def forward(self, x):
        w1, b1, w2, b2 = self.shards
        x = _AllReduce.apply(x, "in")
        partial = F.linear(self.act(F.linear(x, w1, b1)), w2)
        return _AllReduce.apply(partial, "out") + b2


answer = ParallelMLP
