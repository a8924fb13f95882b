# expect: pass _flatten_dense_tensors per (owner, dtype) bucket, zeros-in-place zero_grad, optimizer built only when the rank owns something
# hint:
from collections import defaultdict

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.all_params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        owned_bytes = {r: 0 for r in range(world)}
        buckets = defaultdict(list)  # (owner, dtype) -> params, insertion order = parameter order
        mine = []
        for p in self.all_params:
            owner = min(owned_bytes, key=lambda r: (owned_bytes[r], r))
            owned_bytes[owner] += p.nelement() * p.element_size()
            buckets[owner, p.dtype].append(p)
            if owner == self.rank:
                mine.append(p)
        # a fixed order, the same on every rank: by owner, then by first appearance
        self.buckets = sorted(buckets.items(), key=lambda kv: kv[0][0])
        self.inner = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.inner is not None:
            self.inner.step()
        for (src, _dtype), share in self.buckets:
            flat = _flatten_dense_tensors([p.data for p in share])
            dist.broadcast(flat, src=src)
            if src != self.rank:
                for p, new in zip(share, _unflatten_dense_tensors(flat, [p.data for p in share])):
                    p.data.copy_(new)

    def zero_grad(self):
        for p in self.all_params:
            if p.grad is not None:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()


answer = ShardedOptimizer
