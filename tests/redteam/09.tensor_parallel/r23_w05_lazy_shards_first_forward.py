# expect: fail shards made lazily in the first forward (like nn.LazyLinear), the whole MLP kept until then: after __init__ the module has no parameters (an optimizer built then gets none, so the SGD step changes nothing) and it holds the whole unsplit MLP
# hint: lazy|__init__|parameters|optimizer|first forward|whole|init
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    """f: x passed on forward; its gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


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
        self._pending = (mlp, rank, world)  # shard on first use, once the input is known

    def _shard(self):
        (fc1, act, fc2), rank, world = self._pending
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self._pending = None

    def forward(self, x):
        if self._pending is not None:
            self._shard()
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
