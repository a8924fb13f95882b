# expect: fail launches every broadcast with async_op=True but waits only on those it receives, not those it sends ("my own parameters are already right"): step() returns with sends in flight, and the next step's update can write a parameter gloo is still reading
# hint: wait|send|own|async|handle|in flight|every
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        self.rank = dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        works = [
            (r, dist.broadcast(p.data, src=r, async_op=True))
            for p, r in zip(self.params, self.owners)
        ]
        for r, work in works:
            if r != self.rank:  # what I send is already right here: wait only for what arrives
                work.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
