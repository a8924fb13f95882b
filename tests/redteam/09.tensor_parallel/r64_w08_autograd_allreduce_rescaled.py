# expect: fail the output summed by torch.distributed.nn's all_reduce, its world-times gradient divided back: right values, two all-reduces in the backward
# hint: all.?reduce.{0,80}backward|backward.{0,80}all.?reduce|torch\.distributed\.nn|autograd'?s all.?reduce|(two|2|extra|too many|one more).{0,30}all.?reduce
# Wrong: the chapter's autograd all_reduce sums the output's gradient in backward; dividing it
# by world makes the values right but costs an all-reduce the prompt does not allow (one backward).
import warnings

from torch.distributed.nn.functional import all_reduce as autograd_all_reduce

import torch
import torch.distributed as dist
from torch import nn


class _CopyToShards(torch.autograd.Function):
    """f: x passes on; its gradient is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad



class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        self.world = world
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            total = autograd_all_reduce(h @ self.w2.T)
        if total.requires_grad:
            world = self.world
            # its backward sums a gradient that is already the same everywhere: undo the factor
            total.register_hook(lambda grad: grad / world)
        return total + self.b2


answer = ParallelMLP
