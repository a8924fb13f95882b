# expect: fail greedy by bytes, but the loads live in a helper's mutable default dict, so a later ShardedOptimizer starts from the earlier ones' loads, not from zero (the prompt: each instance starts counting from zero; shows when an earlier instance left the loads uneven)
# hint: zero|instance|start|fresh|reset|shar|default|previous|class
import torch
import torch.distributed as dist


def assign_owners(params, world, loads={}):
    for r in range(world):
        loads.setdefault(r, 0)
    owners = []
    for p in params:
        r = min(range(world), key=lambda r: loads[r])
        owners.append(r)
        loads[r] += p.nbytes
    return owners


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.owners = assign_owners(self.params, dist.get_world_size())
        mine = [p for p, r in zip(self.params, self.owners) if r == dist.get_rank()]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
