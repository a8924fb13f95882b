# expect: fail Passes partial.detach() to g's Function, "because the all-reduce works in place": the Function's input no longer requires grad, so nothing before the sum gets a gradient: only fc2's bias trains, x's gradient is None, and the backward all-reduce never runs.
# hint: (detach|graph|no gradient|gradients? (flow|reach)|x'?s? grad|input'?s gradient|none|backward all-reduce|every shard)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class Fwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class Sum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
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
        h = self.act(F.linear(Fwd.apply(x), self.w1, self.b1))
        partial = F.linear(h, self.w2)
        return Sum.apply(partial.detach()) + self.b2  # in place: keep autograd out of it
