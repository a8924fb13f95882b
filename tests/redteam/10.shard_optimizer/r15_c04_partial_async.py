# expect: pass functools.partial for the optimizer, async broadcasts all waited, a print on rank 0
# hint: 
import functools

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        make = functools.partial(optimizer_cls, **kwargs)
        params = list(params)
        world = dist.get_world_size()
        held = dict.fromkeys(range(world), 0)
        self.plan = []  # (parameter, owner), in model order
        for p in params:
            r = min(held, key=held.get)
            held[r] += p.nbytes
            self.plan.append((p, r))
        self.optimizer = make([p for p, r in self.plan if r == dist.get_rank()])
        if dist.get_rank() == 0:
            print(f"bytes owned per rank: {held}")

    def step(self):
        self.optimizer.step()
        with torch.no_grad():
            handles = [dist.broadcast(p.data, src=r, async_op=True) for p, r in self.plan]
            for h in handles:
                h.wait()

    def zero_grad(self):
        for p, _ in self.plan:
            p.grad = None


answer = ShardedOptimizer
