# expect: pass shard layers built as nn.Linear, then the unsplit weights copied over them (written as wrong for the draws of their initialisation; kept as right: torch draws them in nn.Linear, not a line of the answer, as the kit's seed watch rules, and building a layer is how a learner makes one)
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
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
        self.col = nn.Linear(fc1.in_features, len(mine))
        self.row = nn.Linear(len(mine), fc2.out_features, bias=False)
        self.bias = nn.Parameter(fc2.bias.detach().clone())
        with torch.no_grad():  # then the unsplit model's values over the fresh ones
            self.col.weight.copy_(fc1.weight[mine])
            self.col.bias.copy_(fc1.bias[mine])
            self.row.weight.copy_(fc2.weight[:, mine])
        self.act = act

    def forward(self, x):
        return _G.apply(self.row(self.act(self.col(_F.apply(x))))) + self.bias


answer = ParallelMLP
