# expect: pass f without an autograd.Function: a hook on the grad_fn NODE of a view made in forward (Node.register_hook), which replaces the gradient going to the caller's x by its all-reduced sum; registered only when grad is recorded; g as an autograd.Function; shards stored transposed, used with addmm on a flattened input
# hint: 
import torch
import torch.distributed as dist
from torch import nn


def _summed_input_grad(grad_inputs, grad_outputs):
    (g,) = grad_inputs
    if g is None:
        return None
    g = g.contiguous().clone()
    dist.all_reduce(g)
    return (g,)


class _AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, part):
        out = part.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.activation, second = mlp
        keep = torch.chunk(torch.arange(first.out_features), world)[rank]
        self.a_t = nn.Parameter(first.weight.detach()[keep].t().contiguous())  # (d, h / p)
        self.a_bias = nn.Parameter(first.bias.detach()[keep].clone())
        self.b_t = nn.Parameter(second.weight.detach()[:, keep].t().contiguous())  # (h / p, d)
        self.b_bias = nn.Parameter(second.bias.detach().clone())

    def forward(self, x):
        x = x.view_as(x)
        if x.grad_fn is not None:  # the view's node: its grad_inputs are x's gradient
            x.grad_fn.register_hook(_summed_input_grad)
        flat = x.reshape(-1, x.shape[-1])
        h = self.activation(torch.addmm(self.a_bias, flat, self.a_t))
        out = _AllReduceSum.apply(h @ self.b_t) + self.b_bias
        return out.reshape(*x.shape[:-1], out.shape[-1])


answer = ParallelMLP
