# expect: pass
# hint: 
import heapq

import torch
import torch.distributed as dist


class answer:
    """Owners from a heap of (bytes, rank); async broadcasts, then wait on all."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        heap = [(0, r) for r in range(dist.get_world_size())]
        self.owners = []
        for p in self.params:
            nbytes, r = heapq.heappop(heap)
            self.owners.append(r)
            heapq.heappush(heap, (nbytes + p.numel() * p.element_size(), r))
        me = dist.get_rank()
        self.local = optimizer_cls([p for p, r in zip(self.params, self.owners) if r == me], **kwargs)

    def step(self):
        with torch.no_grad():
            self.local.step()
            works = [dist.broadcast(p.data, src=r, async_op=True) for p, r in zip(self.params, self.owners)]
            for work in works:
                work.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
