# expect: fail fills a missing gradient (p.grad is None) with zeros before stepping, so Adam steps the unused bias at step 0 and its step count and moments run ahead of DDP's
# hint: none|no grad|without (a )?grad|unused|skip|missing|zeros?_like|zero.?fill|step 0|first step|step count|bias.?correction
# Wrong: Adam skips a parameter whose grad is None; giving it zeros counts a step for it (and
# applies weight decay), so from step 1 on its bias correction differs from DDP's Adam.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        self.mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optimizer = optimizer_cls(self.mine, **kwargs) if self.mine else None

    @torch.no_grad()
    def step(self):
        for p in self.mine:  # the optimizer expects a gradient for every parameter it owns
            if p.grad is None:
                p.grad = torch.zeros_like(p)
        if self.optimizer is not None:
            self.optimizer.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
