# expect: fail step() first reduces each gradient to its owner and divides by the world size (ZeRO-1 as the paper does it): the gradients already arrive averaged, so the values come out the same but every step sends the whole gradient once more
# hint: reduce|gradient|grad|already|averag|again|extra|collective
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.rank = dist.get_rank()
        mine = [p for p, r in zip(self.params, self.owner) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        # each owner only needs the average of its own shard
        for p, r in zip(self.params, self.owner):
            if p.grad is not None:
                dist.reduce(p.grad, dst=r)
                if r == self.rank:
                    p.grad /= self.world
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
