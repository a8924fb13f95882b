# expect: fail launches each owner's flat broadcast with async_op=True and copies the buffer back into the parameters right away, waiting only at the end: the receivers copy the buffer before the owner's values have arrived, so they keep stale parameters whenever the broadcast is still in flight
# hint: wait|before|async|race|in flight|copy|order
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        mine = self.shares[rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        handles = []
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.reshape(-1) for p in share])
            handles.append(dist.broadcast(flat, src=src, async_op=True))  # overlap the owners
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))
        for h in handles:
            h.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
