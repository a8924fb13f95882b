# expect: pass the shards in an nn.ParameterDict, fc1's rows stored transposed as (d, h_r), matrix products written with @, and the exchanges as two Functions chosen by a flag
# hint: 
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn


class _Exchange(torch.autograd.Function):
    """reduce_forward=True: g (sum forward, pass back); False: f (pass forward, sum back)."""

    @staticmethod
    def forward(ctx, t, reduce_forward):
        ctx.reduce_forward = reduce_forward
        if reduce_forward:
            t = t.clone()
            dist.all_reduce(t)
            return t
        return t.view_as(t)

    @staticmethod
    def backward(ctx, grad):
        if ctx.reduce_forward:
            return grad, None
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad, None


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.activation, fc2 = mlp
        hidden = torch.chunk(torch.arange(fc1.weight.size(0)), world)[rank]
        self.shards = nn.ParameterDict(
            {
                "w1_t": nn.Parameter(fc1.weight.detach()[hidden].T.contiguous().clone()),
                "b1": nn.Parameter(fc1.bias.detach()[hidden].clone()),
                "w2": nn.Parameter(fc2.weight.detach()[:, hidden].clone()),
                "b2": nn.Parameter(fc2.bias.detach().clone()),
            }
        )

    def forward(self, x):
        p = self.shards
        x = _Exchange.apply(x, False)
        h = self.activation(x @ p["w1_t"] + p["b1"])
        return _Exchange.apply(h @ p["w2"].T, True) + p["b2"]
