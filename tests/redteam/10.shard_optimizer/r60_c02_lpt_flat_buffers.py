# expect: pass largest-first (LPT) owner assignment with a heap, one flat buffer per owner and dtype, zeros in place in zero_grad
# hint:
# name: ShardedOptimizer
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1 with a broadcast per owner (and dtype) of a flat buffer in the parameters' dtype."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        heap = [(0, r) for r in range(world)]
        nbytes = [p.numel() * p.element_size() for p in self.params]
        order = sorted(range(len(self.params)), key=lambda i: (-nbytes[i], i))
        owner = [0] * len(self.params)
        for i in order:
            load, r = heapq.heappop(heap)
            owner[i] = r
            heapq.heappush(heap, (load + nbytes[i], r))
        self.groups = {}  # (owner, dtype) -> parameters, in the original order
        for i, p in enumerate(self.params):
            self.groups.setdefault((owner[i], str(p.dtype)), []).append(p)
        self.keys = sorted(self.groups)  # the same order on every rank
        mine = [p for i, p in enumerate(self.params) if owner[i] == rank]
        self.local = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.local.step()
        for key in self.keys:
            src, _ = key
            share = self.groups[key]
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()
