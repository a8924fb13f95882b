# expect: fail __init__ cuts the caller's own nn.Linear modules down to this rank's shards in place (fc1.weight = nn.Parameter(shard), ...) and reuses them: the shards are copies, but the unsplit mlp passed in is destroyed, so a second ParallelMLP built from the same mlp, or the caller's reference forward, sees the shards instead of the whole layers.
# hint: (caller'?s (mlp|model|module|linear)|in place|mutat|modif(y|ies)|destroy|the (unsplit|original) (mlp|model)|side effect|own linear|reuses? (the )?(caller|mlp))
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _Enter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _Leave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # the Linear modules keep their forward; only their parameters become this rank's shards
        fc1.weight = nn.Parameter(fc1.weight.detach()[mine].clone())
        fc1.bias = nn.Parameter(fc1.bias.detach()[mine].clone())
        fc2.weight = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        fc2.bias = nn.Parameter(fc2.bias.detach().clone())
        self.fc1, self.act, self.fc2 = fc1, act, fc2

    def forward(self, x):
        h = self.act(self.fc1(_Enter.apply(x)))
        return _Leave.apply(F.linear(h, self.fc2.weight)) + self.fc2.bias
