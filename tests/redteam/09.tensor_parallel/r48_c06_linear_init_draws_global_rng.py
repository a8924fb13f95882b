# expect: pass builds nn.Linear shards and copies the weights in: their init draws from the global RNG, which the prompt does not ask to keep (judged right: building the shards as modules is a usual idiom, and the values and gradients are the unsplit model's)
# hint:
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
        self.fc1 = nn.Linear(fc1.in_features, len(mine))
        self.fc2 = nn.Linear(len(mine), fc2.out_features, bias=False)
        with torch.no_grad():
            self.fc1.weight.copy_(fc1.weight[mine])
            self.fc1.bias.copy_(fc1.bias[mine])
            self.fc2.weight.copy_(fc2.weight[:, mine])
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _CopyIn.apply(x)
        return _ReduceOut.apply(self.fc2(self.act(self.fc1(x)))) + self.b2

answer = ParallelMLP
