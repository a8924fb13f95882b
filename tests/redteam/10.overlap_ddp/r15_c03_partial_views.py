# expect: pass functools.partial hooks, _flatten/_unflatten helpers, p.grad rebound to views of the bucket
# hint: 
import functools

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        order = list(model.parameters())
        order.reverse()
        groups, group, filled = [], [], 0
        for p in order:
            group.append(p)
            filled += p.nbytes
            if filled >= bucket_bytes:
                groups.append(group)
                group, filled = [], 0
        if group:
            groups.append(group)
        self.groups = groups
        self.missing = [len(g) for g in groups]
        self.inflight = {}
        for k, g in enumerate(groups):
            for p in g:
                p.register_post_accumulate_grad_hook(functools.partial(self._ready, k))

    def _ready(self, k, p):
        self.missing[k] -= 1
        if self.missing[k] == 0:
            flat = _flatten_dense_tensors([q.grad for q in self.groups[k]])
            flat.div_(dist.get_world_size())
            self.inflight[k] = (flat, dist.all_reduce(flat, async_op=True))

    def _hook(self, p):  # kept for the notebook's signature; the partials call _ready
        for k, g in enumerate(self.groups):
            if any(q is p for q in g):
                return self._ready(k, p)

    def finish(self):
        for k, (flat, work) in self.inflight.items():
            work.wait()
            for q, avg in zip(self.groups[k], _unflatten_dense_tensors(flat, [q.grad for q in self.groups[k]])):
                q.grad = avg
        self.inflight = {}
        self.missing = [len(g) for g in self.groups]


answer = OverlappedDDP
