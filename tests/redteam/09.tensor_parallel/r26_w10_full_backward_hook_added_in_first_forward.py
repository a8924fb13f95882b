# expect: fail f as a module full-backward hook, registered lazily in the first forward (flag-guarded): a module's backward hooks are set up before its forward runs, so the first call's backward never sums x's gradient (one all-reduce missing, x's gradient only this rank's share); later calls are right
# hint: first (call|forward|backward)|lazy|lazily|hook.*(__init__|before|late)|register_full_backward_hook|backward hook|x.s gradient|input.s gradient|share|missing
import torch
import torch.distributed as dist
from torch import nn


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
        self._hooked = False

    @staticmethod
    def _sum_input_grad(module, grad_input, grad_output):
        (g,) = grad_input
        if g is None:
            return None
        g = g.contiguous().clone()
        dist.all_reduce(g)
        return (g,)

    def forward(self, x):
        if not self._hooked:  # f: once, the first time the block runs
            self.register_full_backward_hook(self._sum_input_grad)
            self._hooked = True
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
