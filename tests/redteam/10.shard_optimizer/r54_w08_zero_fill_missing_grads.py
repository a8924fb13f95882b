# expect: fail gives owned parameters without a gradient a zero one before stepping, so Adam steps them (and counts the step) when DDP's Adam skips them
# hint: bias|no grad|without (a )?grad|grad(ient)? (is )?None|skip|step 0|step 1
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(self.mine, **kwargs) if self.mine else None

    @torch.no_grad()
    def step(self):
        for p in self.mine:  # no gradient means a zero gradient: nothing to learn from it
            if p.grad is None:
                p.grad = torch.zeros_like(p)
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
