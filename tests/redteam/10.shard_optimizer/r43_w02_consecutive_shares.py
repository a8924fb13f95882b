# expect: fail It gives each rank a consecutive slice of ceil(count / world_size) parameters, which balances the count of parameters, not their bytes, so on a model of weights and biases one rank can own most of the bytes.
# hint: bytes|balanc|owner|share|consecutive
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        per = -(-len(self.params) // world)
        self.owners = [i // per for i in range(len(self.params))]
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
