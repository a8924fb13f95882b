# expect: fail averages only the weights' gradients, skipping the biases
# hint: bias|every|all|param|gradient
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for name, p in model.named_parameters():
        if p.grad is None or name.endswith("bias"):
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
