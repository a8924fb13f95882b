# expect: pass argmin-of-loads owners, per (owner, dtype) buckets with torch._utils flatten/unflatten helpers
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [p for p in params]
        ws = dist.get_world_size()
        load = torch.zeros(ws, dtype=torch.int64)
        self.owner_of = {}
        for p in self.params:
            r = int(torch.argmin(load))  # first rank with the fewest bytes
            load[r] += p.numel() * p.element_size()
            self.owner_of[id(p)] = r
        self.groups = []  # (owner, [params of one dtype]) in a fixed order
        for r in range(ws):
            by_dtype = {}
            for p in self.params:
                if self.owner_of[id(p)] == r:
                    by_dtype.setdefault(str(p.dtype), []).append(p)
            for key in sorted(by_dtype):
                self.groups.append((r, by_dtype[key]))
        mine = [p for p in self.params if self.owner_of[id(p)] == dist.get_rank()]
        self.inner = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.inner is not None:
            self.inner.step()
        for owner, group in self.groups:
            flat = _flatten_dense_tensors([p.data for p in group])
            dist.broadcast(flat, src=owner)
            if owner != dist.get_rank():
                for p, new in zip(group, _unflatten_dense_tensors(flat, [p.data for p in group])):
                    p.data.copy_(new)

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad.zero_()
