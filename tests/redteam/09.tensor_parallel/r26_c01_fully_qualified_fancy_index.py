# expect: pass torch.distributed.all_reduce written out in full with op=ReduceOp.SUM and group=WORLD as keywords, f and g with @once_differentiable, and shards taken by advanced indexing with an index tensor (already a copy, so no .clone())
# hint: 
import torch
import torch.distributed  # noqa: F401  (used fully qualified below)
from torch import nn
from torch.autograd.function import once_differentiable


def _sum_over_ranks(t):
    t = t.contiguous().clone()
    torch.distributed.all_reduce(t, op=torch.distributed.ReduceOp.SUM, group=torch.distributed.group.WORLD)
    return t


class CopyToRanks(torch.autograd.Function):
    """Megatron's f: identity forward, gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        return _sum_over_ranks(grad)


class ReduceFromRanks(torch.autograd.Function):
    """Megatron's g: sum over the ranks forward, gradient passed through backward."""

    @staticmethod
    def forward(ctx, partial):
        return _sum_over_ranks(partial)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        units = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # indexing with a LongTensor gathers into new memory: these are copies, not views
        self.w1 = nn.Parameter(fc1.weight.detach()[units])
        self.b1 = nn.Parameter(fc1.bias.detach()[units])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, units])
        self.b2 = nn.Parameter(fc2.bias.detach()[torch.arange(fc2.out_features)])
        self.act = act

    def forward(self, x):
        hidden = self.act(nn.functional.linear(CopyToRanks.apply(x), self.w1, self.b1))
        return ReduceFromRanks.apply(nn.functional.linear(hidden, self.w2)) + self.b2


answer = ParallelMLP
