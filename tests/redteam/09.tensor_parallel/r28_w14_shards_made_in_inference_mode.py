# expect: fail Makes the shards inside torch.inference_mode() (a faster no_grad, it thinks): the copies are inference tensors, so the Parameters built from them cannot take part in training: the forward gives the right output, but backward fails (no grad_fn, or inference tensors saved for backward) and no shard gets a gradient.
# hint: (inference_mode|inference tensor|no_grad|requires_grad|grad_fn|does not require grad|backward (fails|raises|error)|gradients? (flow|missing))
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class Broadcast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class Reduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        with torch.inference_mode():  # copying weights needs no autograd
            self.w1 = nn.Parameter(fc1.weight[mine].clone())
            self.b1 = nn.Parameter(fc1.bias[mine].clone())
            self.w2 = nn.Parameter(fc2.weight[:, mine].clone())
            self.b2 = nn.Parameter(fc2.bias.clone())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(Broadcast.apply(x), self.w1, self.b1))
        return Reduce.apply(F.linear(h, self.w2)) + self.b2
