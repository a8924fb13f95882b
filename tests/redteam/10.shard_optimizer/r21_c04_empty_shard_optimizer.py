# expect: pass builds optimizer_cls over an empty list when a rank owns nothing (more ranks than parameters) (relabelled: a rank owns nothing only with fewer parameters than ranks, which no case of the prompt has (8 weights on at most 4 ranks, 3 on 2); it builds optimizer_cls(my_params, **kwargs) as the prompt words it, and PyTorch's ZeroRedundancyOptimizer fails the same way there)
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
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
