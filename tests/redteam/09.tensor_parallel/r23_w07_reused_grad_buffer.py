# expect: fail the input-gradient hook sums into one buffer kept on the module and returns that same tensor every backward: the caller's x.grad can be that buffer, and the next backward through the block overwrites the previous gradient in place (state shared between calls)
# hint: buffer|reuse|same tensor|alias|overwrit|in place|clone|previous
# open: each rank runs one backward per block, so a gradient buffer kept on the module and returned again shows only in a second backward through the same module
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


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self._grad_buf = None  # x's gradient is summed here, no new allocation per step

    def _sum_grad(self, grad):
        if self._grad_buf is None or self._grad_buf.shape != grad.shape:
            self._grad_buf = torch.empty_like(grad)
        self._grad_buf.copy_(grad)
        dist.all_reduce(self._grad_buf)
        return self._grad_buf

    def forward(self, x):
        x = x.view_as(x)
        if x.requires_grad:
            x.register_hook(self._sum_grad)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
