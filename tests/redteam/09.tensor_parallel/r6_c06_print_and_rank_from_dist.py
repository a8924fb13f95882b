# expect: pass
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """f: passes x on; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: sums the row-parallel shares; backward passes the gradient through."""

    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class answer(nn.Module):
    """Reads its rank from the process group, prints what it keeps."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        assert rank == dist.get_rank() and world == dist.get_world_size()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), dist.get_world_size())[dist.get_rank()]
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach().index_select(0, mine))
        self.b1 = nn.Parameter(fc1.bias.detach().index_select(0, mine))
        self.w2 = nn.Parameter(fc2.weight.detach().index_select(1, mine))
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        print(f"rank {rank}: hidden units {int(mine[0])}..{int(mine[-1])}")

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2
