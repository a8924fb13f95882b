# expect: fail zero_grad gives every parameter a zero gradient, creating zeros where p.grad was None: the local Adam then steps parameters that got no gradient (momentum and weight decay move them, and they get moments), which DDP's Adam skips
# hint: None|zeros_like|materiali|unused|no grad|skip
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:  # zeros in place: no reallocation in the next backward
            if p.grad is None:
                p.grad = torch.zeros_like(p)
            else:
                p.grad.zero_()


answer = ShardedOptimizer
