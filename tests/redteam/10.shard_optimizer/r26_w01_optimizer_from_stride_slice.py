# expect: fail gives owners greedily by bytes for the broadcasts, but builds its optimizer over params[rank::world], chapter 10.7's slice: with parameters of one size the two agree, with weights and biases in their own order a rank steps parameters another rank broadcasts over them, and some owners never step theirs
# hint: owner|slice|stride|rank::world|mismatch|same owners|optimizer.*own|agree
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:  # each to the rank with the fewest bytes so far
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        mine = self.params[rank::world]  # this rank's share, as chapter 10.7 takes it
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
