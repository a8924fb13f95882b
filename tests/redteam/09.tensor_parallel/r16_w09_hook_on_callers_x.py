# expect: fail the input-gradient all-reduce is a hook on the caller's x: one more hook per call, and it sums every use of x
# hint: hook|caller|register_hook|view_as|each call|one more
import torch
import torch.distributed as dist
from torch import nn


class _G(torch.autograd.Function):
    """The row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    @staticmethod
    def _sum_grad(grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad

    def forward(self, x):
        if x.requires_grad:
            x.register_hook(self._sum_grad)  # x's gradient: summed over the ranks
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
