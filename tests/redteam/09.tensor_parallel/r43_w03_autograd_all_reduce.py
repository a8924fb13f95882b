# expect: fail uses torch.distributed.nn.functional.all_reduce, which autograd sees but whose backward sums the output's gradient again: one all-reduce each way, the right output, yet W's gradients world times too large and x's only a share
# hint: gradient|backward|autograd|too large|f and g|torch\.distributed\.nn
# name: ParallelMLP
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F

from torch.distributed.nn.functional import all_reduce as autograd_all_reduce


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
        h = self.act(F.linear(x, self.w1, self.b1))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            total = autograd_all_reduce(F.linear(h, self.w2))  # autograd follows this one
        return total + self.b2
