# expect: fail owners by consecutive chunks of ceil(n / world) parameters: balances the count, not the bytes (weight, bias, weight, bias passes by luck; weights then biases does not)
# hint: byte|count|balanc|chunk|size|index
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        per_rank = -(-len(self.params) // world)  # ceil: every parameter gets an owner
        self.owner = [i // per_rank for i in range(len(self.params))]
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
