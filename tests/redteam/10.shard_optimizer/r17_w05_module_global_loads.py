# expect: fail byte counts kept in a module global carry over from one instance to the next
# hint: instance|global|module|zero|carr|previous|earlier|first ShardedOptimizer
from collections import defaultdict

import torch
import torch.distributed as dist

_OWNED_BYTES = defaultdict(int)  # rank -> bytes it owns


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        rank = dist.get_rank()
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: _OWNED_BYTES[k])
            self.owners.append(r)
            _OWNED_BYTES[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
