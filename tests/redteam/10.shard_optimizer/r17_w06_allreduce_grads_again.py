# expect: fail step() all-reduces the already averaged gradients again
# hint: all.?reduce|averag|gradient
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        rank = dist.get_rank()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owners) if o == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        for p in self.params:  # average the gradients first, to be safe
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= self.world
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
