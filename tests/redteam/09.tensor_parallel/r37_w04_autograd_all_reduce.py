# expect: fail torch.distributed.nn.functional.all_reduce for the output: its backward sums the output's gradient (world times too large), and x's gradient is never summed
# hint: world times|too large|times|scal|backward|gradient|twice|double|input.?s grad|x.?s grad
# name: ParallelMLP
import warnings

import torch
from torch import nn
from torch.distributed.nn.functional import all_reduce as differentiable_all_reduce
from torch.nn import functional as F


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
        partial = F.linear(self.act(F.linear(x, self.w1, self.b1)), self.w2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            # an all-reduce that autograd sees: it has its own backward
            total = differentiable_all_reduce(partial)
        return total + self.b2
