# expect: fail builds optimizer_cls(my_params) even when this rank owns no parameter (fewer parameters than ranks): torch raises "optimizer got an empty parameter list" on that rank
# hint: empty|no param|owns? (no|nothing)|fewer param|more ranks|zero param
# open: every run gives each rank a parameter (8 weights on at most 4 ranks; 3 on 2); the prompt does not promise one, and a rank that owns nothing is no case
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, self.rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:  # each to the least-loaded rank so far
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
