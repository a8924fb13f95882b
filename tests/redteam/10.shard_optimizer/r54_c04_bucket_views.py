# expect: pass each owner's parameters made views of one persistent flat bucket, broadcast in place
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        params = [p for p in params]
        world, rank = dist.get_world_size(), dist.get_rank()
        load = dict.fromkeys(range(world), 0)
        owner = {}
        for i, p in enumerate(params):
            r = min(load, key=lambda k: (load[k], k))
            owner[i] = r
            load[r] += p.numel() * p.element_size()
        self.params = params
        # one flat bucket per (owner, dtype); its parameters become views into it, so the
        # owner's optimizer writes the bucket and a broadcast of the bucket updates the others
        self.buckets = []
        keys = sorted({(owner[i], str(p.dtype)) for i, p in enumerate(params)})
        with torch.no_grad():
            for src, dt in keys:
                share = [p for i, p in enumerate(params) if owner[i] == src and str(p.dtype) == dt]
                flat = torch.cat([p.detach().reshape(-1) for p in share])
                offset = 0
                for p in share:
                    p.data = flat[offset : offset + p.numel()].view_as(p)
                    offset += p.numel()
                self.buckets.append((src, flat))
        mine = [p for i, p in enumerate(params) if owner[i] == rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for src, flat in self.buckets:
            dist.broadcast(flat, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
