# expect: fail flat buffer per owner made once in __init__ by torch.cat (a copy) and never refreshed: owners send the initial values
# hint: stale|buffer|not updated|initial|broadcast
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        owners = []
        for p in self.params:
            owner = loads.index(min(loads))
            owners.append(owner)
            loads[owner] += p.numel() * p.element_size()
        self.buckets = []  # kept between calls: no allocation per step
        for src in range(world):
            share = [p for p, o in zip(self.params, owners) if o == src]
            if share:
                flat = torch.cat([p.detach().reshape(-1) for p in share])
                self.buckets.append((src, share, flat))
        mine = [p for p, o in zip(self.params, owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share, flat in self.buckets:
            dist.broadcast(flat, src=src)
            if src != self.rank:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
