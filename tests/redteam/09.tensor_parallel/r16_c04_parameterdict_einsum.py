# expect: pass ParameterDict of shards, einsum, Functions nested in the module class
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class ShardedMLP(nn.Module):
    class Broadcast(torch.autograd.Function):  # identity forward, summed gradient backward
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            summed = g.contiguous().clone()
            dist.all_reduce(summed)
            return summed

    class Reduce(torch.autograd.Function):  # summed forward, identity backward
        @staticmethod
        def forward(ctx, y):
            summed = y.contiguous().clone()
            dist.all_reduce(summed)
            return summed

        @staticmethod
        def backward(ctx, g):
            return g

    def __init__(self, mlp, rank, world):
        super().__init__()
        units = torch.chunk(torch.arange(mlp[0].out_features), world)[rank]
        lo, hi = int(units[0]), int(units[-1]) + 1  # chunk's pieces are consecutive
        self.shards = nn.ParameterDict(
            {
                "up": nn.Parameter(mlp[0].weight.detach()[lo:hi].clone()),
                "up_bias": nn.Parameter(mlp[0].bias.detach()[lo:hi].clone()),
                "down": nn.Parameter(mlp[2].weight.detach()[:, lo:hi].clone()),
                "down_bias": nn.Parameter(mlp[2].bias.detach().clone()),
            }
        )
        self.nonlinearity = mlp[1]

    def forward(self, x):
        s = self.shards
        x = self.Broadcast.apply(x)
        h = self.nonlinearity(torch.einsum("...i,hi->...h", x, s["up"]) + s["up_bias"])
        partial = torch.einsum("...h,oh->...o", h, s["down"])
        return self.Reduce.apply(partial) + s["down_bias"]


answer = ShardedMLP
