# expect: pass kwargs passed as a param-group dict ([{"params": mine, **kwargs}]), owners largest-first greedy, broadcasts owner by owner
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        size = [p.numel() * p.element_size() for p in self.params]
        held = [0] * world
        self.owner = [0] * len(self.params)
        for i in sorted(range(len(self.params)), key=lambda i: -size[i]):  # stable on ties
            r = held.index(min(held))
            self.owner[i] = r
            held[r] += size[i]
        mine = [p for p, r in zip(self.params, self.owner) if r == dist.get_rank()]
        self.local = optimizer_cls([{"params": mine, **kwargs}]) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        for r in range(dist.get_world_size()):
            for p, owner in zip(self.params, self.owner):
                if owner == r:
                    dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
