# expect: fail input gradient summed by a hook on the caller's x (added once per tensor): the hook sums x's whole gradient, so a residual x + block(x) is counted world times
# hint: hook|caller|view_as|residual|x's gradient|input's gradient|gradient of (the )?(x|input)
import torch
import torch.distributed as dist
from torch import nn


class _SumOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


def _sum_over_ranks(grad):
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

    def forward(self, x):
        # one hook per input tensor, however often it comes through: no hooks piling up
        if x.requires_grad and not getattr(x, "_tp_grad_hooked", False):
            x.register_hook(_sum_over_ranks)
            x._tp_grad_hooked = True
        hidden = self.act(x @ self.w1.T + self.b1)
        return _SumOutput.apply(hidden @ self.w2.T) + self.b2


answer = ParallelMLP
