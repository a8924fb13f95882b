# expect: pass one autograd.Function with a non-tensor flag choosing which way it sums (forward for g, backward for f); weights kept transposed, torch.addmm
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class _Exchange(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, sum_in_forward):
        ctx.sum_in_forward = sum_in_forward
        if not sum_in_forward:
            return t.view_as(t)
        out = t.contiguous().clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        if ctx.sum_in_forward:
            return grad, None
        out = grad.contiguous().clone()
        dist.all_reduce(out)
        return out, None


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.act, second = mlp
        sel = torch.chunk(torch.arange(first.out_features), world)[rank]
        self.a = nn.Parameter(first.weight.detach()[sel].T.contiguous().clone())  # (d, k)
        self.a_bias = nn.Parameter(first.bias.detach()[sel].clone())
        self.b = nn.Parameter(second.weight.detach()[:, sel].T.contiguous().clone())  # (k, d)
        self.b_bias = nn.Parameter(second.bias.detach().clone())

    def forward(self, x):
        shape = x.shape
        x = _Exchange.apply(x, False).reshape(-1, shape[-1])
        h = self.act(torch.addmm(self.a_bias, x, self.a))
        z = _Exchange.apply(h @ self.b, True) + self.b_bias
        return z.reshape(*shape[:-1], z.shape[-1])


answer = ParallelMLP
