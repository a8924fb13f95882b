# expect: fail fc2's shard is used through a transposed copy made once in __init__: gradients right, but after the optimizer step forward still uses the old weights
# hint: stale|cach|after .{0,30}step|sgd|updat|optimi[sz]|old (value|weight)
# Wrong: w2.t().contiguous() is a copy taken at construction (still wired to w2 for its
# gradient), so the SGD step's new w2 never reaches the forward.
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
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self._w2_t = self.w2.t().contiguous()  # once, not at every forward: (h/p, d), row-major

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _SumShards.apply(h @ self._w2_t) + self.b2


answer = ParallelMLP
