# expect: fail forward keeps its hidden activations on the module (self.last_hidden, "to inspect them") with their graph: after the call returns, and after backward, each rank still holds a batch of activations per block (and through grad_fn the tensors autograd saved), until the next call replaces them
# hint: keep|kept|hold|self\.|attribute|activation|hidden|between calls|after.*(call|backward)|bytes|storage|memory|alive
# open: not caught yet: each rank runs one forward and one backward per block; a scan of the tensors a rank still holds after them was tried, in the rank and read by the parent: a tensor of the backward's all-reduce stayed alive on some runs of right answers and not on others, even after a second's wait, so the scan would fail right answers now and then (as r23_w06, r23_w07)
import torch
import torch.distributed as dist
from torch import nn

class _F(torch.autograd.Function):
    """f: x passed on forward; its gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: the row-parallel shares summed forward; the gradient passed on backward."""

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
        self.last_hidden = None  # this rank's hidden units of the last call, for debugging

    def forward(self, x):
        self.last_hidden = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _G.apply(self.last_hidden @ self.w2.T) + self.b2


answer = ParallelMLP
