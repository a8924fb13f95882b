# expect: fail It keeps the bytes owned per rank in a class attribute that __init__ only extends, so a second ShardedOptimizer starts from the first one's counts and balances the two together, not its own parameters.
# hint: instance|from zero|count|balanc|carr
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    _load = []  # bytes owned per rank
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = ShardedOptimizer._load
        load.extend([0] * (world - len(load)))
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
