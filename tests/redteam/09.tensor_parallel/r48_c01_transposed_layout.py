# expect: pass two autograd Functions (Megatron's f and g), shards stored transposed as (in, out)
# hint:
import torch
import torch.distributed as dist
from torch import nn


class _CopyToRanks(torch.autograd.Function):
    """f: identity forward; backward sums the input's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _ReduceFromRanks(torch.autograd.Function):
    """g: forward sums the partial outputs over the ranks; backward passes the gradient on."""

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
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # transposed copies: (d, h_r) and (h_r, d), each with its own storage
        self.w1t = nn.Parameter(fc1.weight.detach().T[:, mine].contiguous().clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2t = nn.Parameter(fc2.weight.detach().T[mine].contiguous().clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _CopyToRanks.apply(x)
        hidden = self.act(torch.matmul(x, self.w1t) + self.b1)
        return _ReduceFromRanks.apply(torch.matmul(hidden, self.w2t)) + self.b2


answer = ParallelMLP
