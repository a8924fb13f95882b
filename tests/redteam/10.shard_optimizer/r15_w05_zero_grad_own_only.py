# expect: fail zero_grad clears only this rank's own parameters (the local optimizer's), others accumulate
# hint: zero_grad|every parameter|not only|all (the )?parameters|accumulat|own (parameters|share) only
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: loads[k])
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == dist.get_rank()]
        self.opt = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)

    def zero_grad(self):
        self.opt.zero_grad()


answer = ShardedOptimizer
