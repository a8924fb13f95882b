# expect: pass heapq for the least-loaded rank, one flat buffer and one broadcast per owner
# hint: 
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        heap = [(0, r) for r in range(world)]  # (bytes owned, rank)
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            load, r = heapq.heappop(heap)
            self.shares[r].append(p)
            heapq.heappush(heap, (load + p.nelement() * p.element_size(), r))
        self.optim = optimizer_cls(self.shares[dist.get_rank()], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
