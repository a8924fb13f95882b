# expect: pass
# hint:
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: a heap of (bytes, rank) for owners; one torch.empty buffer per owner and dtype."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        heap = [(0, r) for r in range(self.world)]
        heapq.heapify(heap)
        self.owners = {}
        for p in self.params:
            load, r = heapq.heappop(heap)
            self.owners[p] = r
            heapq.heappush(heap, (load + p.numel() * p.element_size(), r))
        # per (owner, dtype), in the parameters' order: the same lists on every rank
        self.buckets = {}
        for p in self.params:
            self.buckets.setdefault((self.owners[p], p.dtype), []).append(p)
        mine = [p for p in self.params if self.owners[p] == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for (owner, dtype), ps in self.buckets.items():
            n = sum(p.numel() for p in ps)
            flat = torch.empty(n, dtype=dtype, device=ps[0].device)
            if owner == self.rank:
                torch.cat([p.reshape(-1) for p in ps], out=flat)
            dist.broadcast(flat, src=owner)
            if owner != self.rank:
                i = 0
                for p in ps:
                    p.copy_(flat[i : i + p.numel()].view(p.shape))
                    i += p.numel()

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad.zero_()


answer = ShardedOptimizer
