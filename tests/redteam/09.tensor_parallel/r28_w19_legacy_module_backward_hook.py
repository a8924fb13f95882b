# expect: fail Sums the input's gradient in a module hook registered with the old nn.Module.register_backward_hook: that hook sees the gradients of the last autograd node's inputs (the bias add), not of the module's input x, so it all-reduces the output's gradient (world times too large for every shard behind it) and leaves x's gradient a share.
# hint: (register_backward_hook|full_backward|legacy|deprecated|module hook|last (node|op)|grad_input|x'?s? grad|input'?s gradient|world times|too large|gradient of the input)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class RowSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


def _sum_input_grad(module, grad_input, grad_output):
    summed = grad_input[0].clone()
    dist.all_reduce(summed)  # x's gradient, summed over the ranks
    return (summed, *grad_input[1:])


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
        self.register_backward_hook(_sum_input_grad)

    def forward(self, x):
        h = self.act(F.linear(x, self.w1, self.b1))
        return RowSum.apply(F.linear(h, self.w2)) + self.b2
