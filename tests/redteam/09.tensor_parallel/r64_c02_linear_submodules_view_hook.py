# expect: pass
# hint:
# Right: the shards held in nn.Linear sub-modules made with skip_init (no random init, no copy of
# the whole weight), fc2 without its bias; the input's gradient summed by a hook on a view made
# in forward, which the prompt allows; the output's sum in an autograd Function.
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.utils import skip_init


class AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        out = t.clone()
        dist.all_reduce(out, op=dist.ReduceOp.SUM)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # the same gradient reaches every rank's share


def _summed(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.activation, fc2 = mlp[0], mlp[1], mlp[2]
        d, h = fc1.in_features, fc1.out_features
        mine = torch.chunk(torch.arange(h), world)[rank]
        self.column = skip_init(nn.Linear, d, len(mine), dtype=torch.float32)
        self.row = skip_init(nn.Linear, len(mine), d, bias=False, dtype=torch.float32)
        self.bias = nn.Parameter(torch.empty(d, dtype=torch.float32))
        with torch.no_grad():
            self.column.weight.copy_(fc1.weight[mine])
            self.column.bias.copy_(fc1.bias[mine])
            self.row.weight.copy_(fc2.weight[:, mine])
            self.bias.copy_(fc2.bias)

    def forward(self, x):
        if x.requires_grad:
            x = x.view_as(x)  # a fresh view per call: one hook per call, never on the caller's x
            x.register_hook(_summed)
        partial = self.row(self.activation(self.column(x)))
        return AllReduceSum.apply(partial) + self.bias


answer = ParallelMLP
