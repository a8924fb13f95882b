# expect: pass largest-first (LPT) assignment with heapq, one flat buffer per owner in the parameters' dtype, unflattened in place; zero_grad fills zeros in place
# hint:
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self._params = [p for p in params]
        self._world = dist.get_world_size()
        heap = [(0, r) for r in range(self._world)]
        owner = {}
        by_size = sorted(range(len(self._params)), key=lambda i: -self._params[i].nbytes)
        for i in by_size:
            load, r = heapq.heappop(heap)
            owner[i] = r
            heapq.heappush(heap, (load + self._params[i].nbytes, r))
        # each rank's share, in the parameters' own order
        self._shares = [[self._params[i] for i in range(len(self._params)) if owner[i] == r]
                        for r in range(self._world)]
        mine = self._shares[dist.get_rank()]
        self._opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self._opt is not None:
            self._opt.step()
        for src, share in enumerate(self._shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self._params:
            if p.grad is not None:
                p.grad.zero_()


answer = ShardedOptimizer
