# expect: fail keeps the per-rank byte loads in a class attribute: a second instance keeps counting from the first one's loads
# hint: (instance|class|from zero|zero|carr(y|ies) over|shared|previous|first|balanc|half)
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    loads = []  # bytes owned by each rank

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = self.loads
        if len(loads) != world:
            loads[:] = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            loads[r] += p.numel() * p.element_size()
            self.owners.append(r)
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
