# expect: fail broadcasts rank 0's gradient instead of averaging: every rank ends with rank 0's half-batch gradient
# hint: broadcast|all_reduce|all-reduce|average|rank 0
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.broadcast(p.grad, src=0)
