# expect: pass x's gradient summed by a module full backward hook registered once in __init__ (it replaces grad_input), the forward's sum a Function; neither the Function f nor a tensor hook on a view
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class RowParallelSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad  # the same on every rank already


def _sum_input_grad(module, grad_input, grad_output):
    (g,) = grad_input
    if g is None:  # the input needs no gradient
        return None
    g = g.contiguous().clone()
    dist.all_reduce(g)  # each rank's hidden units gave one share
    return (g,)


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.register_full_backward_hook(_sum_input_grad)  # once, not per call

    def forward(self, x):
        h = self.act(torch.addmm(self.b1, x.reshape(-1, x.shape[-1]), self.w1.T))
        out = RowParallelSum.apply(h @ self.w2.T) + self.b2
        return out.reshape(*x.shape[:-1], out.shape[-1])


answer = ParallelMLP
