# expect: fail It broadcasts its own parameters first and then the others', so each rank issues the broadcasts in a different order and they pair up wrong (or hang).
# hint: order|same order|every rank|broadcast
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
        pairs = list(zip(self.params, self.owners))
        mine_first = [x for x in pairs if x[1] == self.rank] + [x for x in pairs if x[1] != self.rank]
        for p, owner in mine_first:  # send what I just updated, then receive the rest
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
