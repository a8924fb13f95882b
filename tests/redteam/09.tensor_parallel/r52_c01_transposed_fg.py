# expect: pass Megatron's f and g as two autograd Functions; fc1's shard kept transposed (d, h/p), explicit ReduceOp.SUM
# hint:
import torch
import torch.distributed as dist
from torch import nn


class _CopyToRanks(torch.autograd.Function):
    """f: the identity forward; backward sums the input's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad, op=dist.ReduceOp.SUM)
        return grad


class _SumOverRanks(torch.autograd.Function):
    """g: forward sums the shares over the ranks; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # fc1's rows for my hidden units, stored transposed: (d, my hidden units)
        self.w1_t = nn.Parameter(fc1.weight.detach()[mine].t().contiguous().float())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone().float())
        self.w2_t = nn.Parameter(fc2.weight.detach()[:, mine].t().contiguous().float())
        self.b2 = nn.Parameter(fc2.bias.detach().clone().float())
        self.act = act

    def forward(self, x):
        x = _CopyToRanks.apply(x)
        hidden = self.act(torch.addmm(self.b1, x, self.w1_t))
        return _SumOverRanks.apply(hidden @ self.w2_t) + self.b2


answer = ParallelMLP
