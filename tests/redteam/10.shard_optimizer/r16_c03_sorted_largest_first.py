# expect: pass largest-first greedy over a sorted copy, owner dict, broadcasts rank by rank, zeros in place
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [*params]
        world = dist.get_world_size()
        loads = dict.fromkeys(range(world), 0)
        self.by_owner = {r: [] for r in range(world)}
        # largest first balances better; sorted() is stable, so every rank gets the same split
        for i in sorted(range(len(self.params)), key=lambda i: -self.params[i].nbytes):
            r = min(loads, key=loads.get)
            self.by_owner[r].append(self.params[i])
            loads[r] += self.params[i].nbytes
        self.local = optimizer_cls(self.by_owner[dist.get_rank()], **kwargs)

    @torch.no_grad()
    def step(self):
        self.local.step()
        for src in range(dist.get_world_size()):
            for p in self.by_owner[src]:
                dist.broadcast(p, src=src)

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
