# expect: pass
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn


class IdentityForwardSumBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        out = torch.empty_like(grad).copy_(grad)
        dist.all_reduce(out)
        return out


class SumForwardIdentityBackward(torch.autograd.Function):
    """Sums `partial` over the ranks in place (it is a fresh intermediate) and says so."""

    @staticmethod
    def forward(ctx, partial):
        dist.all_reduce(partial)
        ctx.mark_dirty(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        lin1, act, lin2 = mlp
        hidden = lin1.out_features
        sizes = [len(c) for c in torch.chunk(torch.arange(hidden), world)]
        lo = sum(sizes[:rank])
        n = sizes[rank]
        self.register_parameter("w_in", nn.Parameter(lin1.weight.detach().narrow(0, lo, n).clone()))
        self.register_parameter("b_in", nn.Parameter(lin1.bias.detach().narrow(0, lo, n).clone()))
        self.register_parameter("w_out", nn.Parameter(lin2.weight.detach().narrow(1, lo, n).clone()))
        self.register_parameter("b_out", nn.Parameter(lin2.bias.detach().clone()))
        self.nonlinearity = act

    def forward(self, x):
        x = IdentityForwardSumBackward.apply(x)
        h = self.nonlinearity(torch.einsum("...i,hi->...h", x, self.w_in) + self.b_in)
        partial = torch.einsum("...h,oh->...o", h, self.w_out)
        return SumForwardIdentityBackward.apply(partial) + self.b_out
