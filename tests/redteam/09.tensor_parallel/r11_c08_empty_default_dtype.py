# expect: pass
# hint:
# name: ParallelMLP
# relabelled after the run (was: fail the shards are allocated with torch.empty(...) in the default dtype (float32) and filled by copy_: a float64 (or bf16/fp16) mlp's shards silently change dtype): the prompt now says the blocks are float32
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToRanks(torch.autograd.Function):
    """Megatron's f: identity forward; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class SumOverRanks(torch.autograd.Function):
    """Megatron's g: forward sums the partial outputs; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        d, n = fc1.in_features, len(mine)
        # allocate this rank's shards, then fill them from the unsplit weights
        self.w1 = nn.Parameter(torch.empty(n, d))
        self.b1 = nn.Parameter(torch.empty(n))
        self.w2 = nn.Parameter(torch.empty(d, n))
        self.b2 = nn.Parameter(torch.empty(d))
        with torch.no_grad():
            self.w1.copy_(fc1.weight[mine])
            self.b1.copy_(fc1.bias[mine])
            self.w2.copy_(fc2.weight[:, mine])
            self.b2.copy_(fc2.bias)
        self.act = act

    def forward(self, x):
        x = CopyToRanks.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        out = SumOverRanks.apply(F.linear(h, self.w2))
        return out + self.b2
