# expect: fail torch.distributed.nn.functional.all_reduce: backward sums the output's gradient (world x too large), x's gradient a share
# hint: input.{0,40}gradient|too large|world.{0,20}times|times.{0,20}world|pass.{0,30}(through|unchanged)
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F
from torch.distributed.nn.functional import all_reduce as ar


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        h = self.act(F.linear(x, self.w1, self.b1))
        return ar(F.linear(h, self.w2)) + self.b2
