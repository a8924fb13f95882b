# expect: pass
# hint:
# Right: greedy owners (fewest bytes so far), an optimizer over this rank's own parameters,
# one broadcast per parameter from its owner, zero_grad clears every gradient (set to None).
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        owned_bytes = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: owned_bytes[r])
            self.owners.append(owner)
            owned_bytes[owner] += p.numel() * p.element_size()
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
