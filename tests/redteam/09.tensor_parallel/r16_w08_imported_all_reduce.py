# expect: fail calls all_reduce imported by name (from torch.distributed import all_reduce), not as dist.all_reduce(...)
# hint: dist\.all_reduce|import|by name|all.?reduce|count
import torch
from torch import nn
from torch.distributed import ReduceOp, all_reduce


class _F(torch.autograd.Function):
    """Identity forward; the input's gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        all_reduce(grad, op=ReduceOp.SUM)
        return grad


class _G(torch.autograd.Function):
    """The row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        all_reduce(partial, op=ReduceOp.SUM)
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

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
