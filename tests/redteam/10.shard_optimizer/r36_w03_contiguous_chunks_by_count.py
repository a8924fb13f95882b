# expect: fail owners by consecutive equal shares of the parameter count, not balanced by bytes
# hint: (bytes|balanc|consecutive|count|chunk|contiguous|size|fewest|half)
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        per_rank = -(-len(self.params) // world)  # ceil: every parameter gets an owner
        self.owners = [i // per_rank for i in range(len(self.params))]
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
