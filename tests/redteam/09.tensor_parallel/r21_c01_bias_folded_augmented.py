# expect: pass fc1's rows and bias folded into one (k, d+1) Parameter, x padded with ones; f and g as Functions (ambiguous only if "any layout" excludes folding the bias in: same bytes, same values)
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class Identity_SumGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        total = grad.contiguous().clone()
        dist.all_reduce(total)
        return total


class Sum_IdentityGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        up, self.activation, down = mlp
        units = torch.chunk(torch.arange(up.out_features), world)[rank]
        w = up.weight.detach()[units].clone()
        b = up.bias.detach()[units].clone()
        self.up = nn.Parameter(torch.cat([w, b[:, None]], dim=1))  # (k, d + 1): a new storage
        self.down = nn.Parameter(down.weight.detach()[:, units].clone())
        self.down_bias = nn.Parameter(down.bias.detach().clone())

    def forward(self, x):
        x = Identity_SumGrad.apply(x)
        padded = torch.cat([x, x.new_ones(*x.shape[:-1], 1)], dim=-1)
        h = self.activation(padded @ self.up.T)
        return Sum_IdentityGrad.apply(h @ self.down.T) + self.down_bias


answer = ParallelMLP
