# expect: pass
# hint:
# Right: Megatron's f (identity forward, all-reduce of the input's gradient backward) and g
# (all-reduce forward, identity backward); shards cloned, stored transposed ("any layout").
import torch
import torch.distributed as dist
from torch import nn


class _CopyToShards(torch.autograd.Function):
    """f: x passes on; its gradient, a share on each rank, is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _SumShards(torch.autograd.Function):
    """g: the row-parallel shares summed; the gradient passes on unchanged."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
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
        # stored as (in, out): x @ w1t, h @ w2t
        self.w1t = nn.Parameter(fc1.weight.detach()[mine].t().contiguous().float())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone().float())
        self.w2t = nn.Parameter(fc2.weight.detach()[:, mine].t().contiguous().float())
        self.b2 = nn.Parameter(fc2.bias.detach().clone().float())
        self.act = act

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1t + self.b1)
        return _SumShards.apply(h @ self.w2t) + self.b2


answer = ParallelMLP
