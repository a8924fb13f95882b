# expect: pass one autograd.Function for the output's sum and, for the input's gradient, a hook on a view made in forward; w2 kept as a transposed contiguous copy
# hint: 
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn


def _summed(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class _ReduceOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # already the same on every rank


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        first, act, second = mlp[0], mlp[1], mlp[2]
        units = torch.chunk(torch.arange(first.weight.shape[0]), world)[rank]
        self.w_in = nn.Parameter(first.weight.detach()[units].clone())
        self.b_in = nn.Parameter(first.bias.detach()[units].clone())
        # (h_r, d): the transposed columns, in a storage of their own
        self.w_out_t = nn.Parameter(
            second.weight.detach()[:, units].t().clone(memory_format=torch.contiguous_format)
        )
        self.b_out = nn.Parameter(second.bias.detach().clone())
        self.act = act

    def forward(self, x):
        if x.requires_grad:
            x = x.view_as(x)  # a fresh view each call: one hook per call
            x.register_hook(_summed)
        hidden = self.act(torch.addmm(self.b_in, x, self.w_in.t()))
        return _ReduceOutput.apply(hidden @ self.w_out_t) + self.b_out
