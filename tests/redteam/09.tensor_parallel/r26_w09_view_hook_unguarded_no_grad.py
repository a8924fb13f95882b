# expect: fail f as the prompt's hook on a view made in forward, but registered unconditionally: a forward under torch.no_grad() (evaluating after the SGD step) or with an x that needs no gradient raises "cannot register a hook on a tensor that doesn't require gradient"
# hint: no_grad|requires_grad|require.*grad|inference|eval|hook.*(guard|condition|only when)|register_hook|doesn.t require
import torch
import torch.distributed as dist
from torch import nn


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


def _sum_over_ranks(grad):
    grad = grad.contiguous().clone()
    dist.all_reduce(grad)
    return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = x.view_as(x)
        x.register_hook(_sum_over_ranks)  # f: x's gradient summed over the ranks
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
