# expect: fail g's Function saves its input and output with save_for_backward (copied from a template) though its backward passes the gradient through: two (rows x d) activations per block kept until backward for nothing
# hint: save_for_backward|saved|memory|kept|activation|bytes|unused
# open: the prompt asks for the bytes of the shards each rank keeps, not for what the exchanges' autograd.Functions save for backward (g's saved input and output are 240 bytes more): no rule counts saved tensors here
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        ctx.save_for_backward(partial, total)
        return total

    @staticmethod
    def backward(ctx, grad):
        partial, total = ctx.saved_tensors
        assert grad.shape == total.shape == partial.shape
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
        h = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
