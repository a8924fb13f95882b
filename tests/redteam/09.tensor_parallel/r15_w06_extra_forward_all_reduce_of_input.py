# expect: fail f's forward also all-reduces (averages) the input 'to be sure every rank has the same x': two all-reduces in the forward
# hint: forward.*(one|two|2|extra|more)|(one|two|2|extra|more).*forward|input.*forward|all.?reduces? (in|per)
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.clone()
        dist.all_reduce(x)  # every rank starts from the same input
        return x / dist.get_world_size()

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
        self.act = act

    def forward(self, x):
        x = CopyToParallel.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        out = ReduceFromParallel.apply(F.linear(h, self.w2))
        return out + self.b2


answer = ParallelMLP
