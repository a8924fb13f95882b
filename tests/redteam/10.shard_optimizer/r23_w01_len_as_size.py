# expect: fail sizes each parameter as len(p) * element_size(): len() is the first dimension, not the element count, so a 16x16 weight and a 16-element bias weigh the same and the split balances the count, not the bytes
# hint: len|numel|first dim|element|byte|balanc
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            nbytes = len(p) * p.element_size()  # size of the tensor in bytes
            r = loads.index(min(loads))  # the rank with the fewest bytes so far
            self.owners.append(r)
            loads[r] += nbytes
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
