# expect: fail the input's gradient is summed by a hook on the caller's x: every call on the same x adds one more all-reduce
# hint: hook|caller|second (call|time)|twice|each call|one more|accumulat
# Wrong: the prompt says a hook on the caller's x does not work (each call adds one more); a
# second forward on the same x sums its gradient twice (world times too large).
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


def _sum_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
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

    def forward(self, x):
        if x.requires_grad:
            x.register_hook(_sum_over_ranks)  # on the tensor the caller passed in
        h = self.act(x @ self.w1.T + self.b1)
        return _SumShards.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
