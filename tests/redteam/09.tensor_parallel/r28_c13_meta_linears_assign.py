# expect: pass
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn


class EnterTP(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x  # returned as is: autograd wraps it, and backward below still runs

    @staticmethod
    def backward(ctx, grad):
        out = grad.clone()
        dist.all_reduce(out)
        return out


class LeaveTP(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        with torch.device("meta"):  # no storage, no random init: filled below
            self.up = nn.Linear(fc1.in_features, len(mine))
            self.down = nn.Linear(len(mine), fc2.out_features, bias=False)
        self.up.load_state_dict(
            {"weight": fc1.weight.detach()[mine].clone(), "bias": fc1.bias.detach()[mine].clone()},
            assign=True,
        )
        self.down.load_state_dict({"weight": fc2.weight.detach()[:, mine].clone()}, assign=True)
        self.bias = nn.Parameter(fc2.bias.detach().clone())  # added once, after the sum
        self.act = act

    def forward(self, x):
        return LeaveTP.apply(self.down(self.act(self.up(EnterTP.apply(x))))) + self.bias
