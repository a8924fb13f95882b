# expect: fail flat buffer per owner built with .float(), which rounds float64 parameters
# hint: dtype|float32|float64|double|round|precision
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            owner = loads.index(min(loads))
            self.owners.append(owner)
            loads[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src in range(self.world):
            share = [p for p, o in zip(self.params, self.owners) if o == src]
            if not share:
                continue
            flat = torch.cat([p.reshape(-1).float() for p in share])  # gloo-friendly float32
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
