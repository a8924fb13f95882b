# expect: pass g as an in-place dist.all_reduce under torch.no_grad on the product's output (autograd sees the identity, which is g's backward), f as a hook on a view made in forward
# hint:
import torch
import torch.distributed as dist
from torch import nn


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        rows = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.fc1 = nn.Linear(fc1.in_features, len(rows))
        self.fc2 = nn.Linear(len(rows), fc2.out_features, bias=False)
        with torch.no_grad():
            self.fc1.weight.copy_(fc1.weight[rows])
            self.fc1.bias.copy_(fc1.bias[rows])
            self.fc2.weight.copy_(fc2.weight[:, rows])
        self.bias = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = x.view_as(x)
        if x.requires_grad:
            def reduce_grad(g):
                g = g.clone()
                dist.all_reduce(g)
                return g
            x.register_hook(reduce_grad)
        partial = self.fc2(self.act(self.fc1(x)))
        with torch.no_grad():
            dist.all_reduce(partial)
        return partial + self.bias


answer = ParallelMLP
