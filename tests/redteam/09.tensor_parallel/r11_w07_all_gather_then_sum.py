# expect: fail the row-parallel sum is an all_gather of every rank's partial output followed by a local sum, not one dist.all_reduce
# hint: all.?gather|no (dist\.)?all.?reduce|(0|zero|none)\b.*all.?reduce|all.?reduce.*(\b0\b|zero|none|missing)|collective
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToRanks(torch.autograd.Function):
    """Megatron's f: identity forward; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class SumOverRanks(torch.autograd.Function):
    """Megatron's g: forward sums the partial outputs; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        # gather every rank's share and add them up: the same sum as an all-reduce
        shares = [torch.empty_like(partial) for _ in range(dist.get_world_size())]
        dist.all_gather(shares, partial.contiguous())
        return torch.stack(shares).sum(0)

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

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
        x = CopyToRanks.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        out = SumOverRanks.apply(F.linear(h, self.w2))
        return out + self.b2
