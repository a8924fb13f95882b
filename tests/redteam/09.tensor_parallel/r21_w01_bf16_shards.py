# expect: fail shards stored and multiplied in bfloat16 to halve the bytes, not float32 as the blocks are: output and gradients off by ~1e-2, half the bytes expected
# hint: float32|bfloat16|bf16|dtype|precision|bytes
import torch
import torch.distributed as dist
from torch import nn


class _Copy(torch.autograd.Function):
    """f: identity forward; the input's gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _Sum(torch.autograd.Function):
    """g: the row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.contiguous().clone()
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
        low = torch.bfloat16  # half the bytes of float32 per shard
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone().to(low))
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone().to(low))
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone().to(low))
        self.b2 = nn.Parameter(fc2.bias.detach().clone().to(low))

    def forward(self, x):
        dtype = x.dtype
        x = _Copy.apply(x).to(self.w1.dtype)
        h = self.act(x @ self.w1.T + self.b1)
        return (_Sum.apply(h @ self.w2.T) + self.b2).to(dtype)


answer = ParallelMLP
