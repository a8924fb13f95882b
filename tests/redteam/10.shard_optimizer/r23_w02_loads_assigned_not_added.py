# expect: fail the greedy loop writes loads[r] = nbytes instead of +=, so a rank's load is its last parameter's size, not its running total; with equal-size weights the ties send almost everything to rank 0
# hint: load|running|total|accumul|\+=|balanc|fewest|uneven|byte
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = {}
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owner[p] = r
            loads[r] = p.numel() * p.element_size()  # bytes this rank now owns
        mine = [p for p in self.params if self.owner[p] == dist.get_rank()]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for p in self.params:  # same order everywhere
            dist.broadcast(p.data, src=self.owner[p])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
