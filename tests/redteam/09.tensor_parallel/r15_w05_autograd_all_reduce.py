# expect: fail the chapter's torch.distributed.nn.functional.all_reduce (sums the gradient backward) and no f: weight gradients world times too large, x's gradient only a share
# hint: torch\.distributed\.nn|autograd.?s all.?reduce|backward.*(sum|all.?reduce)|too large|world times|gradient.*(pass|unchanged|through)|input.?s gradient|x.?s gradient
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.nn.functional import all_reduce as autograd_all_reduce
from torch.nn import functional as F


class ParallelMLP(nn.Module):
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
            # an all-reduce that autograd sees: it handles the backward too
            out = autograd_all_reduce(F.linear(h, self.w2))
        return out + self.b2


answer = ParallelMLP
