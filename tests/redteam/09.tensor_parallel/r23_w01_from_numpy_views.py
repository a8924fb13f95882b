# expect: fail shards taken through numpy and torch.from_numpy, which shares memory instead of copying: every shard is a view of the whole unsplit weight (kept alive through the ndarray's base, while the new tensor's storage reports only the slice's bytes), and the SGD step writes into the caller's MLP
# hint: from_numpy|numpy|view|share|storage|copy|clone|whole weight
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
        lo, hi = int(mine[0]), int(mine[-1]) + 1
        w1, b1 = fc1.weight.detach().numpy(), fc1.bias.detach().numpy()
        w2, b2 = fc2.weight.detach().numpy(), fc2.bias.detach().numpy()
        # numpy slicing is easy to read; from_numpy gives tensors back
        self.w1 = nn.Parameter(torch.from_numpy(w1[lo:hi]))
        self.b1 = nn.Parameter(torch.from_numpy(b1[lo:hi]))
        self.w2 = nn.Parameter(torch.from_numpy(w2[:, lo:hi]))
        self.b2 = nn.Parameter(torch.from_numpy(b2.copy()))

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
