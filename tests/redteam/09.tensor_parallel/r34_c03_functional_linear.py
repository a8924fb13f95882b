# expect: pass F.linear on shards kept in a ParameterDict, one Function with an identity forward for f, in-place all_reduce on a fresh tensor in g
# hint:
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class Enter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        total = grad.contiguous()
        total = total.clone()
        dist.all_reduce(total)
        return total


class Exit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, part):
        summed = torch.empty_like(part).copy_(part)
        dist.all_reduce(summed)
        return summed

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.act, second = mlp[0], mlp[1], mlp[2]
        idx = torch.chunk(torch.arange(first.out_features), world)[rank]
        self.p = nn.ParameterDict({
            "w1": first.weight.detach().index_select(0, idx).clone(),
            "b1": first.bias.detach().index_select(0, idx).clone(),
            "w2": second.weight.detach().index_select(1, idx).clone(),
            "b2": second.bias.detach().clone(),
        })

    def forward(self, x):
        h = self.act(F.linear(Enter.apply(x), self.p["w1"], self.p["b1"]))
        return Exit.apply(F.linear(h, self.p["w2"])) + self.p["b2"]


answer = ParallelMLP
