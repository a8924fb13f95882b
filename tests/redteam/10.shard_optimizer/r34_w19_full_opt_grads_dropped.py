# expect: fail builds the optimizer over ALL parameters and, in step(), sets the gradients of parameters it does not own to None so Adam skips them (not over its own parameters only; clobbers the caller's gradients inside step)
# hint: own|optimizer_cls|only|state|grad
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
        self.optim = optimizer_cls(self.params, **kwargs)
        self.rank = rank

    @torch.no_grad()
    def step(self):
        for p, r in zip(self.params, self.owner):
            if r != self.rank:
                p.grad = None
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
