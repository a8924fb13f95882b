# expect: fail each rank broadcasts its own parameters first, then the others': the collectives' order differs between ranks
# hint: order|same .*rank|mismatch|hang|deadlock|time(d)? ?out
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
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
        # send what we just updated as early as possible, then receive the rest
        pairs = list(zip(self.params, self.owners))
        pairs.sort(key=lambda po: po[1] != self.rank)
        for p, owner in pairs:
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
