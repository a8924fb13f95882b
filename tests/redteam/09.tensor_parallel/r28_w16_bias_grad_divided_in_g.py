# expect: fail Adds fc2's bias inside g's Function and, since the bias is replicated on every rank, returns its gradient divided by world: each rank's copy of the bias then learns 1 / world of its true gradient, so the output is right but the outputs after an SGD step are not.
# hint: (bias.*(grad|gradient)|replicated|divid|/ ?world|averag|1 ?/ ?(p|world)|b2|after (an|the|one) (sgd )?step)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class SplitInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class SumAndBias(torch.autograd.Function):
    """g with fc2's bias: sum the shares over the ranks, then add the bias once."""

    @staticmethod
    def forward(ctx, partial, bias, world):
        ctx.world = world
        total = partial.clone()
        dist.all_reduce(total)
        return total + bias

    @staticmethod
    def backward(ctx, grad):
        bias_grad = grad.reshape(-1, grad.shape[-1]).sum(0)
        return grad, bias_grad / ctx.world, None  # the bias lives on every rank: share it


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.world = world
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(SplitInput.apply(x), self.w1, self.b1))
        return SumAndBias.apply(F.linear(h, self.w2), self.b2, self.world)
