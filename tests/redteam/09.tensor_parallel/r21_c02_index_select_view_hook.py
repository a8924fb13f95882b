# expect: pass shards by torch.index_select (already a copy into new storage; .clone() added for safety), F.linear, x's gradient summed by a hook on a view made in forward, g as a Function
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


def _summed_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class _SumForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        idx = torch.chunk(torch.arange(mlp[0].out_features), world)[rank]
        self.weight1 = nn.Parameter(torch.index_select(mlp[0].weight.detach(), 0, idx).clone())
        self.bias1 = nn.Parameter(torch.index_select(mlp[0].bias.detach(), 0, idx).clone())
        self.weight2 = nn.Parameter(torch.index_select(mlp[2].weight.detach(), 1, idx).clone())
        self.bias2 = nn.Parameter(mlp[2].bias.detach().clone())
        self.act = mlp[1]

    def forward(self, x):
        x = x.view_as(x)  # a view of our own, so the hook lives and dies with this call
        if x.requires_grad:
            x.register_hook(_summed_over_ranks)
        h = self.act(F.linear(x, self.weight1, self.bias1))
        return _SumForward.apply(F.linear(h, self.weight2)) + self.bias2


answer = ParallelMLP
