# expect: fail g's backward also all-reduces (and averages) the output's gradient: values right, two all-reduces in the backward
# hint: all.?reduce|backward|extra|output's gradient|pass(es)? (its gradient|through)|unchanged|two|count
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    """Identity forward; the input's gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """The row-parallel shares summed forward; backward keeps the ranks' gradients in step."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        # average the output's gradient over the ranks, as DDP does, so that they agree
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad / dist.get_world_size()


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

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
