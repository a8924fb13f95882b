# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist


from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

BUCKET = 4096  # elements


def _buckets(grads):
    bucket, size = [], 0
    for g in grads:
        bucket.append(g)
        size += g.numel()
        if size >= BUCKET:
            yield bucket
            bucket, size = [], 0
    if bucket:
        yield bucket


def answer(model):
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for bucket in _buckets(reversed(grads)):
        flat = _flatten_dense_tensors(bucket)
        dist.all_reduce(flat)
        flat.div_(world)
        for g, avg in zip(bucket, _unflatten_dense_tensors(flat, bucket)):
            g.copy_(avg)
