# expect: fail hook on the caller's x, removing the previous call's hook to avoid piling up: a block applied twice drops the first call's all-reduce
# hint: twice|input.*grad|gradient of (the )?input|x.*grad|hook|all.reduce
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        return grad


def _summed(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


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
        self._handle = None

    def forward(self, x):
        if x.requires_grad:
            if self._handle is not None:  # one hook at a time: no pile-up over calls
                self._handle.remove()
            self._handle = x.register_hook(_summed)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2


answer = ParallelMLP
