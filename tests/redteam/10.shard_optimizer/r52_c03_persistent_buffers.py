# expect: pass flat buffers kept from __init__, refreshed from the parameters each step; partial for the optimizer
# hint:
import functools

import torch
import torch.distributed as dist


def _owners(sizes, world):
    loads = [0] * world
    out = []
    for n in sizes:
        r = min(range(world), key=loads.__getitem__)
        out.append(r)
        loads[r] += n
    return out


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        params = tuple(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        owners = _owners([p.numel() * p.element_size() for p in params], world)
        self._rank = rank
        self._params = params
        self._groups = []  # (src, share, buffer) in the same order on every rank
        for src in range(world):
            share = [p for p, o in zip(params, owners) if o == src]
            if share:
                buf = torch.empty(sum(p.numel() for p in share),
                                  dtype=share[0].dtype, device=share[0].device)
                self._groups.append((src, share, buf))
        make = functools.partial(optimizer_cls, **kwargs)
        self.optimizer = make([p for p, o in zip(params, owners) if o == rank])

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        for src, share, buf in self._groups:
            views = buf.split([p.numel() for p in share])
            if src == self._rank:
                for p, v in zip(share, views):
                    v.copy_(p.reshape(-1))
            dist.broadcast(buf, src=src)
            if src != self._rank:
                for p, v in zip(share, views):
                    p.copy_(v.view_as(p))

    def zero_grad(self):
        for p in self._params:
            p.grad = None


answer = ShardedOptimizer
