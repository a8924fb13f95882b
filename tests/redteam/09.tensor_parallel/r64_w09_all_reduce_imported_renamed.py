# expect: fail all_reduce imported under another name (from torch.distributed import all_reduce as ...), not called as dist.all_reduce(...)
# hint: dist\.all_reduce|import|another name|alias|renam|(no|zero|0|none|missing|without).{0,30}all.?reduce|all.?reduce.{0,40}(not (seen|counted|called|found)|count)
# Wrong: the prompt says to call dist.all_reduce(...) as such; a name bound at import time
# escapes what watches dist.all_reduce. Values are right.
import torch
from torch import nn
from torch.distributed import all_reduce as sum_over_ranks


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        sum_over_ranks(grad)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        sum_over_ranks(partial)
        return partial

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
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
