# expect: fail keeps the whole mlp as a submodule (to reach its activation): its whole weights become this rank's parameters too
# hint: bytes|storage|submodule|shards only|whole (mlp|weight|model|matri)|parameters.*(whole|all|too many|more)|keeps|memory
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
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
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.mlp = mlp  # for its activation

    def forward(self, x):
        x = CopyToParallel.apply(x)
        h = self.mlp[1](F.linear(x, self.w1, self.b1))
        out = ReduceFromParallel.apply(F.linear(h, self.w2))
        return out + self.b2


answer = ParallelMLP
