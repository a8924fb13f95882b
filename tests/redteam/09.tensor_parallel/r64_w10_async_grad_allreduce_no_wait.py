# expect: fail the input's gradient all-reduced with async_op=True and never waited for: backward passes on a gradient the sum may not have reached
# hint: async|wait|complet|finish|race|in flight
# Wrong: an asynchronous collective must be waited for (work.wait()) before its tensor is used;
# here autograd reads the gradient while gloo may still be summing it (a race).
import torch
import torch.distributed as dist
from torch import nn


class _CopyToShards(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad, async_op=True)  # let it run while autograd goes on
        return grad


class _SumShards(torch.autograd.Function):
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
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _SumShards.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
