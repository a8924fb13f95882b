# expect: fail zero_grad() zeroes every p.grad in place without checking for None: called before the first backward (as a training loop does), or with a parameter that got no gradient, it raises AttributeError on None
# hint: none|attributeerror|zero_grad|first|before|no grad|set_to_none
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        held = [0] * world
        self.owner = []
        for p in self.params:
            r = held.index(min(held))
            self.owner.append(r)
            held[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == dist.get_rank()]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        # zeros in place, like zero_grad(set_to_none=False): no new allocation next step
        for p in self.params:
            p.grad.zero_()


answer = ShardedOptimizer
