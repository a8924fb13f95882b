# expect: fail broadcasts the parameters before stepping the local optimizer: other ranks lag a step
# hint: before.*step|after.*step|order|stale|lag|old (value|parameter)|one step behind
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.opt = optimizer_cls(
            [p for p, o in zip(self.params, self.owner) if o == dist.get_rank()], **kwargs
        )

    @torch.no_grad()
    def step(self):
        # first make sure everyone has the owners' copies, then update mine
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)
        self.opt.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
