# expect: fail g writes the block's output into one buffer kept on the module between calls (to save allocations) and returns that buffer: a second call overwrites the output the caller got from the first
# hint: buffer|between calls|alias|overwrit|previous|state|same (tensor|storage)
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _GPlusBias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial, bias, buffer):
        buffer.copy_(partial)
        dist.all_reduce(buffer)
        buffer.add_(bias)
        return buffer

    @staticmethod
    def backward(ctx, grad):
        return grad, grad.sum(0), None


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
        self._out = None

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        partial = h @ self.w2.T
        if self._out is None or self._out.shape != partial.shape:
            self._out = torch.empty_like(partial)
        return _GPlusBias.apply(partial, self.b2, self._out)


answer = ParallelMLP
