# expect: fail fills each rank up to total/world bytes and moves on before overflowing, the last rank taking the rest: on 3 ranks the 8 weights split 2, 2, 4, not 2 or 3 each, so the last rank holds far more than 1/3 of the state
# hint: balanc|byte|1/n|2 or 3|share|fewest|last|remainder|owner
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        target = sum(p.nbytes for p in self.params) / world  # each rank's fair share
        r, load, self.owners = 0, 0, []
        for p in self.params:
            if load + p.nbytes > target and r < world - 1:  # this one would overflow: next rank
                r, load = r + 1, 0
            self.owners.append(r)
            load += p.nbytes
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
