# expect: fail clips the gradients before the step with clip_grad_norm_ over its OWN parameters only: each rank measures the norm of its shard, not of the whole gradient, so the ranks clip by different factors and the step is no longer DDP's (clipping was not asked for either)
# hint: clip|norm|own shard|global norm|whole gradient|scal
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    max_norm = 1.0  # keep the step safe from a gradient spike

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        self.mine = [p for p, r in zip(self.params, self.owners) if r == me]
        self.optim = optimizer_cls(self.mine, **kwargs) if self.mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            torch.nn.utils.clip_grad_norm_(self.mine, self.max_norm)
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
