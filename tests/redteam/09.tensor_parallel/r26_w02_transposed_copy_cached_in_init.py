# expect: fail contiguous transposed copies of the weight shards are made once in __init__ (for faster matmuls) and used by forward: gradients still reach the Parameters through the copies' graph, but the SGD step updates the Parameters and never the copies, so the output after the step is the old one (and each rank keeps every weight twice)
# hint: cache|cached|stale|copy|copies|transpos|contiguous|sgd|step|update|twice|bytes|storage
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
        # x @ W.T transposes on every call: do it once, contiguous, and reuse it
        self._w1_t = self.w1.t().contiguous()
        self._w2_t = self.w2.t().contiguous()

    def forward(self, x):
        h = self.act(_F.apply(x) @ self._w1_t + self.b1)
        return _G.apply(h @ self._w2_t) + self.b2


answer = ParallelMLP
