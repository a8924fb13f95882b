# expect: pass
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn


def _summed(t):
    """A new tensor holding t summed over the ranks (t itself untouched)."""
    t = t.clone()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t


class _EnterTP(torch.autograd.Function):
    """Before the column-parallel layer: x as is; its gradient summed over the ranks."""

    @staticmethod
    def forward(x):
        return x.view_as(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad_x):
        return _summed(grad_x)


class _LeaveTP(torch.autograd.Function):
    """After the row-parallel layer: the partial outputs summed; the gradient as is."""

    @staticmethod
    def forward(partial):
        return _summed(partial)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.activation, second = mlp[0], mlp[1], mlp[2]
        idx = torch.chunk(torch.arange(first.weight.shape[0]), world)[rank]
        with torch.no_grad():
            pieces = (
                torch.index_select(first.weight, 0, idx),
                torch.index_select(first.bias, 0, idx),
                torch.index_select(second.weight, 1, idx),
                second.bias.clone(),
            )
        # index_select already makes new tensors; .clone() kept for clarity of ownership
        self.shards = nn.ParameterList([nn.Parameter(p.clone()) for p in pieces])

    def forward(self, x):
        w1, b1, w2, b2 = self.shards
        x = _EnterTP.apply(x)
        hidden = self.activation(torch.matmul(x, w1.t()) + b1)
        return _LeaveTP.apply(torch.matmul(hidden, w2.t())) + b2
