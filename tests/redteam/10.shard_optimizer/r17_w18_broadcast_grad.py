# expect: fail broadcasts p.grad instead of the updated parameters
# hint: p\.data|parameter|grad|updated|differ
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        rank = dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, o in zip(self.params, self.owners) if o == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            if p.grad is not None:
                dist.broadcast(p.grad, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
