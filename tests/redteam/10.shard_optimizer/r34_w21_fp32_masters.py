# expect: fail copies the chapter's mixed-precision recipe: Adam over float32 master copies of its own parameters, copied back after the step (rounds float64 parameters; keeps a second copy of its share)
# hint: dtype|float32|float64|master|copy|round
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
        self.mine = mine
        self.masters = [p.detach().float().requires_grad_() for p in mine]
        self.optim = optimizer_cls(self.masters, **kwargs)

    @torch.no_grad()
    def step(self):
        for p, m in zip(self.mine, self.masters):
            m.grad = p.grad.float()
        self.optim.step()
        for p, m in zip(self.mine, self.masters):
            p.copy_(m)
            m.grad = None
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
