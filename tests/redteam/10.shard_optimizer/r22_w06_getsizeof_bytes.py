# expect: fail greedy whose "bytes" are sys.getsizeof(p): the Python object's size (80 for every tensor), not its data's, so it balances the count and the weights-and-biases model in its own order ends unbalanced in bytes
# hint: byte|nbytes|numel|element|size|balanc|count|data
import sys

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda r: loads[r])
            self.owners.append(r)
            loads[r] += sys.getsizeof(p)  # bytes of the parameter
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
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
