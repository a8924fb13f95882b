# expect: fail the owners' byte tally is a class attribute, shared by every instance: a second ShardedOptimizer does not start counting from zero
# hint: instance|class.?(level|attribute|variable)|shared|start(s|ing)? (counting )?(\w+ )?(from )?zero|carr(y|ies|ied) over|previous|first (ShardedOptimizer|instance)
# Wrong: `_owned_bytes` is a mutable class attribute; `self._owned_bytes[r] += ...` adds to the
# class's Counter, so the next instance balances the total of all instances, not its own bytes.
from collections import Counter

import torch
import torch.distributed as dist


class ShardedOptimizer:
    _owned_bytes = Counter()  # bytes each rank owns so far

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: self._owned_bytes[r])
            self.owners.append(owner)
            self._owned_bytes[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
