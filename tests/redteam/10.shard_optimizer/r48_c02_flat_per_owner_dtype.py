# expect: pass one flat buffer per (owner, dtype) built with torch._utils' flatten/unflatten, one broadcast each, parameters copied back in their own dtype; zero_grad zeros gradients in place
# hint:
from collections import defaultdict

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        self.rank = dist.get_rank()
        owned = [0] * world
        buckets = defaultdict(list)
        for p in self.params:
            src = owned.index(min(owned))
            owned[src] += p.nbytes
            buckets[(src, str(p.dtype))].append(p)
        self.buckets = sorted(buckets.items())  # the same (owner, dtype) order on every rank
        mine = [p for (src, _), ps in self.buckets if src == self.rank for p in ps]
        self.local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        for (src, _), ps in self.buckets:
            flat = _flatten_dense_tensors([p.detach() for p in ps])  # ps share one dtype
            dist.broadcast(flat, src=src)
            if src != self.rank:
                for p, q in zip(ps, _unflatten_dense_tensors(flat, ps)):
                    p.copy_(q)

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
