# expect: pass transposed shards with addmm, a hook on a view for the input's gradient
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class _SumShares(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out, op=dist.ReduceOp.SUM)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # every rank already holds the whole output's gradient


def _summed_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class TensorParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.act, second = mlp[0], mlp[1], mlp[2]
        hidden = torch.chunk(torch.arange(first.out_features), world)[rank]
        # (d, h_r) and (h_r, d): x @ w1_t, then h @ w2_t
        self.w1_t = nn.Parameter(first.weight.detach()[hidden].t().contiguous().float())
        self.b1 = nn.Parameter(first.bias.detach()[hidden].clone().float())
        self.w2_t = nn.Parameter(second.weight.detach()[:, hidden].t().contiguous().float())
        self.b2 = nn.Parameter(second.bias.detach().clone().float())

    def forward(self, x):
        if torch.is_grad_enabled() and x.requires_grad:
            x = x.view_as(x)  # a new node each call: the hook lives and dies with it
            x.register_hook(_summed_over_ranks)
        h = self.act(torch.addmm(self.b1, x, self.w1_t))
        return _SumShares.apply(h @ self.w2_t) + self.b2


answer = TensorParallelMLP
