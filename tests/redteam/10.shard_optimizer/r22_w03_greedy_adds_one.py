# expect: fail greedy "to the rank with the fewest so far" but the load grows by 1 per parameter, not by its bytes: that is round-robin by count, which the weights-and-biases model in its own order shows unbalanced in bytes
# hint: byte|balanc|count|size|nbytes|fewest
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
            r = loads.index(min(loads))  # the rank that owns the fewest so far
            self.owners.append(r)
            loads[r] += 1
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
