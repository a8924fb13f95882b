# expect: fail each forward's view of x is appended, with its hook's handle, to a list on the module that is never cleared: every input the block ever saw stays alive (memory grows with every step)
# hint: view|input|handle|list|leak|alive|kept|never cleared|memory|grows
# open: each rank runs one forward and one backward per block, so views kept with their hooks from one call to the next stay unseen: only a second step on the same module, with the memory each keeps counted, tells it apart
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
        self._hooked = []  # (view, handle): so the hooks can be removed later if needed

    def forward(self, x):
        x = x.view_as(x)  # a fresh view per call: one hook each, never piling up on the caller's x
        if x.requires_grad:
            self._hooked.append((x, x.register_hook(_sum_over_ranks)))
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
