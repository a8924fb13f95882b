# expect: fail It calls torch.manual_seed(0) in __init__ to make sure the ranks agree, which reseeds the caller's global random generator.
# hint: seed|random|generator|fork_rng
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        torch.manual_seed(0)  # the same choices on every rank
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: (load[r], r))
            self.owners.append(owner)
            load[owner] += p.numel() * p.element_size()
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
