# expect: pass optimizer built through functools.partial, flat buffer per owner with torch._utils flatten/unflatten (keeps dtype), set_to_none style zero_grad
# hint:
import functools

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        held = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = min(range(self.world), key=held.__getitem__)
            self.shares[r].append(p)
            held[r] += p.element_size() * p.nelement()
        make = functools.partial(optimizer_cls, **kwargs)
        self.inner = make(self.shares[dist.get_rank()])

    @torch.no_grad()
    def step(self):
        self.inner.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = _flatten_dense_tensors([p.detach() for p in share])
            dist.broadcast(flat, src=src)
            for p, new in zip(share, _unflatten_dense_tensors(flat, share)):
                p.copy_(new)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
