# expect: fail ignores its rank and world arguments and asks dist.get_rank()/get_world_size(): the shard built for rank r in a process whose group rank differs (or with no group) is the wrong one
# hint: rank|world|argument|get_rank|get_world_size|parameter
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
        # the process group knows best which rank this is
        rank, world = dist.get_rank(), dist.get_world_size()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _Copy.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _Sum.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
