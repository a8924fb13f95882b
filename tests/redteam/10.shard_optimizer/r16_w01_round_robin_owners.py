# expect: fail owners given round-robin by index, ignoring the parameters' bytes: balanced only when every parameter has the same size
# hint: bytes|balanc|round.?robin|size|fewest|index|i % world|uneven
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        self.owners = [i % world for i in range(len(self.params))]  # spread them over the ranks
        mine = [p for p, o in zip(self.params, self.owners) if o == dist.get_rank()]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
