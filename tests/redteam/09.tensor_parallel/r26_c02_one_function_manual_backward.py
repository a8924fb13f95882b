# expect: pass the whole block as ONE autograd.Function with a hand-written backward (every shard's gradient by explicit matmuls, the activation's derivative by autograd.grad on a recomputation from the saved pre-activation); one all-reduce of the output forward, one of the input's gradient backward
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class _ShardedBlock(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w1, b1, w2, b2, act):
        flat = x.reshape(-1, x.shape[-1])
        pre = torch.addmm(b1, flat, w1.t())  # this rank's hidden units, before the activation
        hidden = act(pre)
        out = hidden @ w2.t()  # this rank's share of the row-parallel sum
        dist.all_reduce(out)  # g: the shares summed
        out += b2  # the bias once, after the sum
        ctx.act = act
        ctx.in_shape = x.shape
        ctx.save_for_backward(flat, pre, hidden, w1, w2)
        return out.reshape(*x.shape[:-1], w2.shape[0])

    @staticmethod
    def backward(ctx, grad_out):
        flat, pre, hidden, w1, w2 = ctx.saved_tensors
        g = grad_out.reshape(-1, grad_out.shape[-1])
        # g's backward: the output's gradient passes on unchanged
        grad_w2 = g.t() @ hidden
        grad_b2 = g.sum(0)
        grad_hidden = g @ w2
        with torch.enable_grad():  # the activation's derivative, whatever the activation is
            p = pre.detach().requires_grad_()
            (grad_pre,) = torch.autograd.grad(ctx.act(p), p, grad_hidden)
        grad_w1 = grad_pre.t() @ flat
        grad_b1 = grad_pre.sum(0)
        grad_x = grad_pre @ w1  # only this rank's hidden units' share
        dist.all_reduce(grad_x)  # f's backward: summed over the ranks
        return grad_x.reshape(ctx.in_shape), grad_w1, grad_b1, grad_w2, grad_b2, None


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
        return _ShardedBlock.apply(x, self.w1, self.b1, self.w2, self.b2, self.act)


answer = ParallelMLP
