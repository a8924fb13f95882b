# expect: fail Calls the autograd Functions' forward directly (Fn.forward(None, t)) instead of Fn.apply(t): autograd never sees the Functions, so f's backward (the input gradient's all-reduce) never runs and x's gradient is only this rank's share; the output is still right.
# hint: (\.apply|forward directly|backward (never|not) (runs|called)|input'?s gradient|gradient of (the )?(input|x)|x'?s? grad|all-reduce.*backward|backward.*all-reduce|share)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class F_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class G_(torch.autograd.Function):
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
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = F_.forward(None, x)  # Megatron's f
        h = self.act(F.linear(x, self.w1, self.b1))
        return G_.forward(None, F.linear(h, self.w2)) + self.b2  # Megatron's g
