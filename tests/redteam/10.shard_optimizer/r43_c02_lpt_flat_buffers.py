# expect: pass Largest-first assignment with a heap of (bytes, rank), then one flat buffer per owner and dtype, made in the parameters' own dtype, broadcast once and unpacked with split.
# hint: 
# name: ShardedOptimizer
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self._params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        heap = [(0, r) for r in range(world)]
        heapq.heapify(heap)
        order = sorted(
            range(len(self._params)),
            key=lambda i: (-self._params[i].numel() * self._params[i].element_size(), i),
        )
        owner_of = [0] * len(self._params)
        for i in order:
            held, r = heapq.heappop(heap)
            owner_of[i] = r
            heapq.heappush(heap, (held + self._params[i].numel() * self._params[i].element_size(), r))
        self._shares = {}  # (owner, dtype name) -> parameters, in parameter order
        for p, r in zip(self._params, owner_of):
            self._shares.setdefault((r, str(p.dtype)), []).append(p)
        self._keys = sorted(self._shares)  # the same order on every rank
        mine = [p for p, r in zip(self._params, owner_of) if r == rank]
        self._local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self._local is not None:
            self._local.step()
        me = dist.get_rank()
        for owner, _ in self._keys:
            share = self._shares[owner, _]
            if owner == me:
                flat = torch.cat([p.detach().reshape(-1) for p in share])
            else:
                flat = torch.empty(sum(p.numel() for p in share), dtype=share[0].dtype)
            dist.broadcast(flat, src=owner)
            if owner != me:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self, set_to_none=True):
        for p in self._params:
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad.zero_()
