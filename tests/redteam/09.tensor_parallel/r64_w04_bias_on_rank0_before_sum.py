# expect: fail fc2's bias added by rank 0 only, before the all-reduce: the output is right, but the other ranks' bias gets no gradient
# hint: bias
# Wrong: the prompt wants the bias added after the sum, on every rank; here only rank 0's copy
# is used (inside the sum), so the other ranks' b2 has no gradient and never trains.
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
        self.rank = rank
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        partial = h @ self.w2.T
        if self.rank == 0:  # the bias once in the sum: one rank adds it
            partial = partial + self.b2
        return _SumShards.apply(partial)


answer = ParallelMLP
