# expect: fail keeps the whole unsplit mlp as a submodule (for its activation): its full weights stay alive and among the parameters
# hint: whole|unsplit|full|mlp|parameters|bytes|storage|keeps|shards only
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


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
        self.mlp = mlp  # for its activation, whichever it is
        fc1, _, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _F.apply(x)
        h = self.mlp[1](x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
