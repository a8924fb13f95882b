# expect: pass broadcasts p.data.contiguous() "to be safe" (relabelled: the .contiguous() copy differs from p.data only for a non-contiguous parameter, and for those the prompt's own dist.broadcast(p.data, src=owner) is refused by the backends (tensors must be contiguous): the input is outside what the prompt allows; for contiguous parameters .contiguous() is p.data itself, no copy)
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])  # fewest bytes so far
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data.contiguous(), src=o)  # the backends want contiguous tensors

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
