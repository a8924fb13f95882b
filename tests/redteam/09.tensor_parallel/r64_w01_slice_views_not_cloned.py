# expect: fail shards are slices of the whole weights (views, never cloned): each rank keeps the whole mlp's storages
# hint: view|storage|clon|cop(y|ies|ied)|whole weight|slice
# Wrong: .detach()[lo:hi] is a view, so each Parameter shares (and keeps alive) the whole
# weight's storage; the prompt says to clone. Values are all right.
import torch
import torch.distributed as dist
from torch import nn


class _CopyToShards(torch.autograd.Function):
    """f: x passes on; its gradient is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _SumShards(torch.autograd.Function):
    """g: the shares summed; the gradient passes on unchanged."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        units = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(units[0]), int(units[-1]) + 1
        # detach() already gives a new tensor, no need to clone (it does not: it is a view)
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach())

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(nn.functional.linear(x, self.w1, self.b1))
        return _SumShards.apply(nn.functional.linear(h, self.w2)) + self.b2


answer = ParallelMLP
