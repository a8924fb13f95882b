# expect: pass input gradient summed in a module full backward hook (grad_input replaced), g as a Function, einsum
# hint:
import torch
import torch.distributed as dist
from torch import nn


class _Gather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        result = torch.empty_like(partial).copy_(partial)
        dist.all_reduce(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        return grad.clone()


def _sum_input_grad(module, grad_input, grad_output):
    summed = []
    for g in grad_input:
        if g is not None:
            g = g.clone()
            dist.all_reduce(g)
        summed.append(g)
    return tuple(summed)


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, act, second = list(mlp)
        units = torch.chunk(torch.arange(first.weight.shape[0]), world)[rank]
        self.weight_in = nn.Parameter(first.weight.detach()[units].clone())
        self.bias_in = nn.Parameter(first.bias.detach()[units].clone())
        self.weight_out = nn.Parameter(second.weight.detach()[:, units].clone())
        self.bias_out = nn.Parameter(second.bias.detach().clone())
        self.act = act
        # called with the gradient of this call's own input only, once per call
        self.register_full_backward_hook(_sum_input_grad)

    def forward(self, x):
        h = self.act(torch.einsum("...i,oi->...o", x, self.weight_in) + self.bias_in)
        partial = torch.einsum("...k,ok->...o", h, self.weight_out)
        return _Gather.apply(partial) + self.bias_out


answer = ParallelMLP
