# expect: fail Keeps only its shards, but in forward scatters them into zero-filled full-size (d, h) and (n, h) tensors and multiplies those: right output and gradients, yet every rank computes the whole fc2 product and keeps a full-width hidden activation for backward, so the work and the activations no longer shrink as 1 / world.
# hint: (full(-| )(size|width)|zero(-| )?(pad|fill)|pad|whole (hidden|product|width)|1 ?/ ?(p|world)|every rank computes|activations?.*(kept|saved|bytes)|bytes)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class F_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class G_(torch.autograd.Function):
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
        self.hidden = fc1.out_features
        self.register_buffer("mine", torch.chunk(torch.arange(self.hidden), world)[rank])
        self.w1 = nn.Parameter(fc1.weight.detach()[self.mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[self.mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, self.mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h_mine = self.act(F.linear(F_.apply(x), self.w1, self.b1))
        # the other ranks' units as zeros: then the product is the ordinary fc2 shape
        h = h_mine.new_zeros(*h_mine.shape[:-1], self.hidden).index_copy(-1, self.mine, h_mine)
        w2 = self.w2.new_zeros(self.w2.shape[0], self.hidden).index_copy(1, self.mine, self.w2)
        return G_.apply(F.linear(h, w2)) + self.b2
