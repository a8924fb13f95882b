# expect: pass
# hint:
# Right: shards picked with index_select and kept in a ParameterList; g sums the row-parallel
# output in place (ctx.mark_dirty tells autograd), f sums the input's gradient in backward.
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class Identity_AllReduceGrad(torch.autograd.Function):  # Megatron's f
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        summed = grad.clone(memory_format=torch.contiguous_format)
        dist.all_reduce(summed)
        return summed


class AllReduceInPlace_IdentityGrad(torch.autograd.Function):  # Megatron's g
    @staticmethod
    def forward(ctx, partial):
        dist.all_reduce(partial)  # partial is ours: the matmul's fresh output
        ctx.mark_dirty(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.act, second = mlp
        idx = torch.chunk(torch.arange(first.out_features), world)[rank]
        with torch.no_grad():
            shards = [
                first.weight.index_select(0, idx),
                first.bias.index_select(0, idx),
                second.weight.index_select(1, idx),
                second.bias.clone(),
            ]
        self.shards = nn.ParameterList(nn.Parameter(s.to(torch.float32)) for s in shards)

    def forward(self, x):
        w1, b1, w2, b2 = self.shards
        x = Identity_AllReduceGrad.apply(x)
        partial = F.linear(self.act(F.linear(x, w1, b1)), w2)
        return AllReduceInPlace_IdentityGrad.apply(partial) + b2


answer = ParallelMLP
