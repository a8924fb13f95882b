# expect: pass ReduceOp.AVG (gloo averages on torch 2.14; the answer was written expecting it to be refused)
# hint:
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
