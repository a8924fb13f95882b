# expect: fail fc2's bias is the caller's own Parameter, reused, not a copy: its storage is shared with mlp and the step updates mlp
# hint: storage|shar(e|ed|es|ing)|alias|not (a )?cop|clon|same (tensor|parameter|object)|caller'?s (mlp|bias|parameter)
# Wrong: the replicated bias is "whole anyway", so the learner keeps mlp[2].bias itself; the
# prompt says every shard is copied. Outputs and gradients are right.
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
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = fc2.bias  # replicated on every rank: nothing to cut, so kept as it is

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _SumShards.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
