# expect: fail It steps an optimizer over all the parameters and drops the moments of the parameters it does not own after each step, so the state is 1/n between steps but each step holds (and computes) all of it.
# hint: state|own|shard|memory|peak|during
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: (load[r], r))
            self.owners.append(owner)
            load[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(self.params, **kwargs)
        self.others = [p for p, o in zip(self.params, self.owners) if o != self.rank]

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p in self.others:  # keep only my share of the state
            self.optim.state.pop(p, None)
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
