# expect: fail passes only lr to optimizer_cls, drops the other kwargs (betas, eps, weight_decay...)
# hint: kwargs|keyword|betas|weight_decay|eps|pass (on )?all
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == dist.get_rank()]
        self.opt = optimizer_cls(mine, lr=kwargs.get("lr", 1e-3))

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
