# expect: fail hook on a view of x registered unconditionally: forward raises when x does not require grad (an input batch, or under torch.no_grad)
# hint: requires_grad|no_grad|hook|raise|error|exception
import copy

import torch
import torch.distributed as dist
from torch import nn


def _sum_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad, op=dist.ReduceOp.SUM)
    return grad


class _SumShares(torch.autograd.Function):
    @staticmethod
    def forward(ctx, share):
        share = share.clone()
        dist.all_reduce(share, op=dist.ReduceOp.SUM)
        return share

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output  # the output's gradient is the same on every rank


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, activation, second = mlp[0], mlp[1], mlp[2]
        hidden = first.weight.shape[0]
        rows = torch.chunk(torch.arange(hidden), world)[rank]
        self.shards = nn.ParameterList(
            [
                first.weight.detach()[rows].clone(),
                first.bias.detach()[rows].clone(),
                second.weight.detach()[:, rows].clone(),
                second.bias.detach().clone(),
            ]
        )
        self.activation = copy.deepcopy(activation)

    def forward(self, x):
        x = x.view_as(x)  # a fresh view, one per call: its hook dies with it
        x.register_hook(_sum_over_ranks)
        w1, b1, w2, b2 = self.shards
        hidden = self.activation(nn.functional.linear(x, w1, b1))
        return _SumShares.apply(nn.functional.linear(hidden, w2)) + b2


answer = ParallelMLP
