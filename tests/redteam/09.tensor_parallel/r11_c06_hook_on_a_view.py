# expect: pass
# hint:
# name: ParallelMLP
# relabelled after the run (was: fail the input gradient's all-reduce is a tensor hook (register_hook), not a torch.autograd.Function's backward, as the prompt asks): the prompt now says a hook on a view made in forward also works for the input's gradient
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


def _sum_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class SumOverRanks(torch.autograd.Function):
    """Megatron's g: forward sums the partial outputs; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = x.view_as(x)  # a fresh alias, so the hook is not left on the caller's tensor
        if x.requires_grad:
            x.register_hook(_sum_over_ranks)  # x's gradient, summed over the ranks
        h = self.act(F.linear(x, self.w1, self.b1))
        out = SumOverRanks.apply(F.linear(h, self.w2))
        return out + self.b2
