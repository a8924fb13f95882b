# expect: fail keeps the per-rank byte loads in a class attribute: a second instance keeps counting from the first one's loads
# hint: instance|zero|class|first|count
import torch
import torch.distributed as dist


class ShardedOptimizer:
    _load = None
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        if ShardedOptimizer._load is None:
            ShardedOptimizer._load = [0] * world
        load = ShardedOptimizer._load
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
