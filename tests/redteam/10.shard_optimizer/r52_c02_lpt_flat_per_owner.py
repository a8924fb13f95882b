# expect: pass largest-first heap assignment, one flat broadcast per owner in the parameters' own dtype
# hint:
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1 with a flat buffer per owner (one broadcast per rank)."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [p for p in params]
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        heap = [(0, r) for r in range(self.world)]  # (bytes so far, rank)
        owner_of = {}
        order = sorted(range(len(self.params)),
                       key=lambda i: (-self.params[i].nbytes, i))
        for i in order:
            load, r = heapq.heappop(heap)
            owner_of[i] = r
            heapq.heappush(heap, (load + self.params[i].nbytes, r))
        self.shares = [[p for i, p in enumerate(self.params) if owner_of[i] == r]
                       for r in range(self.world)]
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            if src != self.rank:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
