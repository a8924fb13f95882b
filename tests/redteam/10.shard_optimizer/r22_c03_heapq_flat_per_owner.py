# expect: pass heapq of (bytes, rank) loads; one flat buffer per owner (per dtype, in the parameters' dtype) broadcast, then copied back
# hint: 
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, self.rank = dist.get_world_size(), dist.get_rank()
        heap = [(0, r) for r in range(world)]  # (bytes so far, rank): already a heap
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            load, r = heapq.heappop(heap)
            self.shares[r].append(p)
            heapq.heappush(heap, (load + p.nbytes, r))
        mine = self.shares[self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src, share in enumerate(self.shares):
            for dtype in dict.fromkeys(p.dtype for p in share):  # first-seen order, same everywhere
                group = [p for p in share if p.dtype == dtype]
                if src == self.rank:
                    flat = torch.cat([p.data.reshape(-1) for p in group])
                else:
                    n = sum(p.numel() for p in group)
                    flat = torch.empty(n, dtype=dtype, device=group[0].device)
                dist.broadcast(flat, src=src)
                offset = 0
                for p in group:
                    p.data.copy_(flat[offset:offset + p.numel()].view_as(p))
                    offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
