# expect: fail f's backward returns this rank's share and queues a callback (autograd's queue_callback) that all-reduces the caller's x.grad when the whole backward has ended: right for one block on a fresh leaf x, but a block fed by another block passes only its share on (its input is no leaf: no .grad), so the earlier block's gradients are wrong, and a .grad that already held something is summed too
# hint: callback|queue_callback|end of (the )?backward|x\.grad|leaf|share|earlier block|chain|two blocks|in backward.*sum|sum.*in backward
import torch
import torch.distributed as dist
from torch import nn

from torch.autograd import Variable


class _F(torch.autograd.Function):
    """f: x passed on forward; its gradient summed over the ranks once backward is over."""

    @staticmethod
    def forward(ctx, x):
        ctx.caller_x = x
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        x = ctx.caller_x

        def sum_when_done():  # x.grad is complete only when the whole backward has run
            if x.is_leaf and x.grad is not None:
                dist.all_reduce(x.grad)

        Variable._execution_engine.queue_callback(sum_when_done)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        h = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
