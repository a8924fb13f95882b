# expect: fail owners dealt round-robin by index (itertools.cycle over the ranks): balances the count, not the bytes, so on the weights-and-biases model in its own order one rank gets most of the 256-element weights
# hint: byte|balanc|count|index|round|order|fewest
import itertools

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        # deal the parameters out like cards: 0, 1, ..., world - 1, 0, 1, ...
        self.owners = list(itertools.islice(itertools.cycle(range(world)), len(self.params)))
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
