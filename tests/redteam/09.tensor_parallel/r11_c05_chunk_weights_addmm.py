# expect: pass
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.autograd.function import once_differentiable


def _make_exchange(sum_forward):
    """An autograd.Function that sums over the ranks in one direction and copies in the other."""

    def _sum(t):
        t = t.clone(memory_format=torch.contiguous_format)
        dist.all_reduce(t)
        return t

    class Exchange(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return _sum(t) if sum_forward else t.view_as(t)

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            return g if sum_forward else _sum(g)

    return Exchange


_to_ranks = _make_exchange(sum_forward=False)  # f
_from_ranks = _make_exchange(sum_forward=True)  # g


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        w1 = fc1.weight.detach()
        # chunking the weights' hidden dimension gives the same pieces as chunking arange(h)
        self.w1 = nn.Parameter(torch.chunk(w1, world, dim=0)[rank].clone())
        self.b1 = nn.Parameter(torch.chunk(fc1.bias.detach(), world, dim=0)[rank].clone())
        self.w2 = nn.Parameter(torch.chunk(fc2.weight.detach(), world, dim=1)[rank].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        lead, d = x.shape[:-1], x.shape[-1]
        x2 = _to_ranks.apply(x).reshape(-1, d)
        h = self.act(torch.addmm(self.b1, x2, self.w1.t()))
        partial = torch.mm(h, self.w2.t())
        out = _from_ranks.apply(partial) + self.b2
        return out.reshape(*lead, out.shape[-1])
