# expect: pass nn.Linear submodules made with skip_init (no random draw), input gradient summed by a hook on a view
# hint:
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.utils import skip_init


def _sum_over_ranks(grad):
    total = grad.clone()
    dist.all_reduce(total)
    return total


class _SumForward(torch.autograd.Function):
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
        fc1, act, fc2 = mlp[0], mlp[1], mlp[2]
        d, h = fc1.in_features, fc1.out_features
        mine = torch.chunk(torch.arange(h), world)[rank]
        # skip_init builds the layers on the meta device first: no weight init, no global RNG draw
        self.column = skip_init(nn.Linear, d, len(mine), dtype=torch.float32)
        self.row = skip_init(nn.Linear, len(mine), d, bias=False, dtype=torch.float32)
        with torch.no_grad():
            self.column.weight.copy_(fc1.weight.detach()[mine])
            self.column.bias.copy_(fc1.bias.detach()[mine])
            self.row.weight.copy_(fc2.weight.detach()[:, mine])
        self.bias2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = x.view_as(x)  # a tensor of this call's own, so the hook sees only this block's gradient
        if x.requires_grad:
            x.register_hook(_sum_over_ranks)
        return _SumForward.apply(self.row(self.act(self.column(x)))) + self.bias2


answer = ParallelMLP
