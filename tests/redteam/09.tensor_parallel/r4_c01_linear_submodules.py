# expect: pass
# hint: 
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _Copy(torch.autograd.Function):
    """f: identity forward; backward sums x's gradient over the ranks."""
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _Reduce(torch.autograd.Function):
    """g: sums the shares forward; backward passes the gradient through."""
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class answer(nn.Module):
    """Shards as two nn.Linear modules (the second without bias) and a separate bias."""
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        idx = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.col = nn.Linear(fc1.in_features, len(idx))
        self.row = nn.Linear(len(idx), fc2.out_features, bias=False)
        with torch.no_grad():
            self.col.weight.copy_(fc1.weight.index_select(0, idx))
            self.col.bias.copy_(fc1.bias.index_select(0, idx))
            self.row.weight.copy_(fc2.weight.index_select(1, idx))
        self.bias = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        return _Reduce.apply(self.row(self.act(self.col(_Copy.apply(x))))) + self.bias
