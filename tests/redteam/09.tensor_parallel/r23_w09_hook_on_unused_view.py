# expect: fail the hook is registered on a view of x made in forward, but the matmul still uses the caller's x, not the view: the view is not in the graph, the hook never fires, x's gradient stays this rank's share and no all-reduce runs in backward
# hint: view|hook|never|fires|unused|not used|graph|share|all_reduce
import torch
import torch.distributed as dist
from torch import nn


class _G(torch.autograd.Function):
    """g: the row-parallel shares summed forward; the gradient passed on backward."""

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
        if x.requires_grad:
            # a hook on a view made here, not on the caller's x: one per call
            x.view_as(x).register_hook(_sum_over_ranks)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
