# expect: pass shards registered by name with register_parameter in a loop, F.linear, all-reduces written with explicit op=ReduceOp.SUM and group=dist.group.WORLD, backward marked once_differentiable
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.autograd.function import once_differentiable
from torch.nn import functional as F


def _summed(t):
    t = t.contiguous().clone()
    dist.all_reduce(t, op=dist.ReduceOp.SUM, group=dist.group.WORLD)
    return t


class EnterBlock(torch.autograd.Function):  # Megatron's f
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        return _summed(grad)


class LeaveBlock(torch.autograd.Function):  # Megatron's g
    @staticmethod
    def forward(ctx, partial):
        return _summed(partial)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        self.act = act
        units = torch.chunk(torch.arange(fc1.out_features), world)[rank].tolist()
        shards = {
            "w_in": fc1.weight.detach()[units],
            "b_in": fc1.bias.detach()[units],
            "w_out": fc2.weight.detach()[:, units],
            "b_out": fc2.bias.detach(),
        }
        for name, t in shards.items():
            self.register_parameter(name, nn.Parameter(t.clone()))

    def forward(self, x):
        h = self.act(F.linear(EnterBlock.apply(x), self.w_in, self.b_in))
        return LeaveBlock.apply(F.linear(h, self.w_out)) + self.b_out


answer = ParallelMLP
