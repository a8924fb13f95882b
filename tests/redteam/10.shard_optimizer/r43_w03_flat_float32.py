# expect: fail It broadcasts one flat buffer per owner made with torch.zeros(n), which is float32, so float64 parameters are rounded to float32 on their way to the other ranks (and on the owner too).
# hint: dtype|float32|float64|zeros|round
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: (load[r], r))
            self.owners.append(owner)
            load[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        world = dist.get_world_size()
        for owner in range(world):  # one flat buffer per owner: one broadcast per rank
            share = [p for p, o in zip(self.params, self.owners) if o == owner]
            if not share:
                continue
            flat = torch.zeros(sum(p.numel() for p in share))
            if owner == self.rank:
                offset = 0
                for p in share:
                    flat[offset : offset + p.numel()] = p.reshape(-1)
                    offset += p.numel()
            dist.broadcast(flat, src=owner)
            offset = 0
            for p in share:
                p.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
