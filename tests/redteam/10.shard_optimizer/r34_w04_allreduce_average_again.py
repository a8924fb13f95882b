# expect: fail all-reduces and divides the gradients again in step() "to be safe": same values, one needless all-reduce per parameter
# hint: all.?reduce|again|averaged|gradient
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= dist.get_world_size()
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
