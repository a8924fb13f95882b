# expect: fail steps each owned parameter from a post-accumulate-grad hook (the optimizer fused into backward, as 10.3's hooks): the hook runs inside backward on this rank's own gradient, before the caller averages the gradients over the ranks, so the update uses the local gradient (and where the gradients are set without a backward, nothing is stepped at all); step() only broadcasts
# hint: hook|backward|before.*averag|averag|local gradient|post_accumulate|during backward
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        mine = [p for p, r in zip(self.params, self.owners) if r == me]
        # one optimizer per owned parameter, stepped as soon as its gradient is ready:
        # the update overlaps the rest of backward
        self.optims = {id(p): optimizer_cls([p], **kwargs) for p in mine}
        for p in mine:
            p.register_post_accumulate_grad_hook(self._step_one)

    def _step_one(self, p):
        self.optims[id(p)].step()

    @torch.no_grad()
    def step(self):
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
