# expect: fail materialises the optimizer state in __init__ with a step on zero gradients, which advances Adam's step counter (and applies weight decay), so later updates use the wrong bias correction
# hint: step|count|bias|state|init|extra|warm
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs)
        # allocate the moments now, so the memory is there from the start (zero grads: no update)
        for p in mine:
            p.grad = torch.zeros_like(p)
        self.optim.step()
        for p in mine:
            p.grad = None

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
