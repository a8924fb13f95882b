# expect: pass sharded nn.Linear submodules made with skip_init (no RNG drawn), one two-way all-reduce Function
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.utils import skip_init


class AllReduceIn(torch.autograd.Function):
    """Sums over the ranks in the pass named by `when` ("forward" or "backward"); the
    other pass lets the tensor through unchanged."""

    @staticmethod
    def forward(ctx, t, when):
        ctx.when = when
        if when == "forward":
            t = t.clone()
            dist.all_reduce(t)
            return t
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        if ctx.when == "backward":
            g = g.clone()
            dist.all_reduce(g)
        return g, None


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        units = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        d_in, d_out = fc1.in_features, fc2.out_features
        self.column = skip_init(nn.Linear, d_in, len(units), dtype=torch.float32)
        self.row = skip_init(nn.Linear, len(units), d_out, bias=False, dtype=torch.float32)
        self.bias = nn.Parameter(torch.empty(d_out, dtype=torch.float32))
        with torch.no_grad():
            self.column.weight.copy_(fc1.weight[units])
            self.column.bias.copy_(fc1.bias[units])
            self.row.weight.copy_(fc2.weight[:, units])
            self.bias.copy_(fc2.bias)
        self.act = act

    def forward(self, x):
        x = AllReduceIn.apply(x, "backward")
        y = self.row(self.act(self.column(x)))
        return AllReduceIn.apply(y, "forward") + self.bias
