# expect: fail uses torch.distributed.nn.functional.all_reduce, whose backward sums the output gradient (shards world x too large) and never sums the input gradient
# hint: torch\.distributed\.nn|too large|world|backward.{0,80}(output|sum)|input.{0,30}grad
import torch
import torch.distributed as dist
from torch import nn


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
        from torch.distributed.nn.functional import all_reduce
        h = self.act(x @ self.w1.T + self.b1)
        return all_reduce(h @ self.w2.T) + self.b2


answer = ParallelMLP
