# expect: pass f and g as torch.library custom ops with register_autograd (not torch.autograd.Function), each still calling dist.all_reduce(...) inside its body
# hint: 
import uuid

import torch
import torch.distributed as dist
from torch import nn

_NS = f"r23tp_{uuid.uuid4().hex[:8]}"  # a fresh namespace: loading this file twice registers no op twice


@torch.library.custom_op(f"{_NS}::copy_to_ranks", mutates_args=())
def copy_to_ranks(x: torch.Tensor) -> torch.Tensor:
    return x.clone()


@torch.library.custom_op(f"{_NS}::sum_over_ranks", mutates_args=())
def sum_over_ranks(x: torch.Tensor) -> torch.Tensor:
    total = x.contiguous().clone()
    dist.all_reduce(total)
    return total


def _copy_backward(ctx, grad):
    return sum_over_ranks(grad)  # f: x's gradient summed over the ranks


def _sum_backward(ctx, grad):
    return grad  # g: passed on unchanged


copy_to_ranks.register_autograd(_copy_backward)
sum_over_ranks.register_autograd(_sum_backward)


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
        h = self.act(torch.einsum("...d,kd->...k", copy_to_ranks(x), self.w1) + self.b1)
        return sum_over_ranks(torch.einsum("...k,dk->...d", h, self.w2)) + self.b2


answer = ParallelMLP
