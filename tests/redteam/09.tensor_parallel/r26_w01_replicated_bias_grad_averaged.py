# expect: fail the replicated bias b2 gets a gradient hook that all-reduces and averages it "as DDP does for replicated parameters": the values are unchanged (b2's gradient is already the same on every rank) but each backward runs one more all-reduce per block
# hint: b2|bias|replicat|extra|one all-reduce|backward.*(two|2|more)|average|hook
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
        fc1, self.act, fc2 = mlp
        self.world = world
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        # b2 is replicated on every rank: keep its copies in step, as DDP would
        self.b2.register_hook(self._average_over_ranks)

    def _average_over_ranks(self, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad / self.world

    def forward(self, x):
        h = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
