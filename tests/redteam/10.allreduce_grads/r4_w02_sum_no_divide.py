# expect: fail sums the gradients but never divides by the world size
# hint: divid|average|world|sum
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
