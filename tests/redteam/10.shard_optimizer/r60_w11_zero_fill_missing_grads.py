# expect: fail gives a zero gradient to every parameter whose grad is None before stepping, so Adam steps an unused bias (its step count and bias correction run ahead of DDP's)
# hint: none|no grad|without.*grad|skip|missing|unused|zero|step count|bias
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(self.mine, **kwargs)

    @torch.no_grad()
    def step(self):
        for p in self.mine:  # a missing gradient means "no change"
            if p.grad is None:
                p.grad = torch.zeros_like(p)
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
