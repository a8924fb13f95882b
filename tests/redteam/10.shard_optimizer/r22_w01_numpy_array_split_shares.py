# expect: fail owners by consecutive shares of the count (np.array_split of the indices): balances the count, not the bytes, so the last case's weights-and-biases model in its own order leaves one rank far over half the bytes (the 8-weight cases split 3/3/2 or evenly and pass)
# hint: byte|balanc|count|share|consecutive|order|fewest
import numpy as np
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        # an even share of the parameters each, the first ranks taking one more if it does not divide
        self.owners = np.empty(len(self.params), dtype=np.int64)
        for r, idx in enumerate(np.array_split(np.arange(len(self.params)), world)):
            self.owners[idx] = r
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=int(r))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
