# expect: fail shards registered as buffers that require grad, not parameters: parameters() is empty, an optimizer never steps them
# hint: parameter|shard|sgd|step|bytes
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _CopyIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _ReduceOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # buffers: saved in state_dict and moved by .to() like parameters (but never optimized)
        self.register_buffer("w1", fc1.weight.detach()[mine].clone().requires_grad_())
        self.register_buffer("b1", fc1.bias.detach()[mine].clone().requires_grad_())
        self.register_buffer("w2", fc2.weight.detach()[:, mine].clone().requires_grad_())
        self.register_buffer("b2", fc2.bias.detach().clone().requires_grad_())
        self.act = act

    def forward(self, x):
        x = _CopyIn.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _ReduceOut.apply(F.linear(h, self.w2)) + self.b2

answer = ParallelMLP
