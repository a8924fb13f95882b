# expect: fail builds its optimizer over [p.data for p in mine]: each .data is a new tensor object, sharing the storage but not the gradient (its .grad stays None), so the optimizer skips every one and nothing is ever updated (nor any state made)
# hint: \.data|grad.*None|no grad|never update|not update|skip|detach|parameter itself
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
        # the optimizer updates the raw storage, outside autograd, as the broadcasts do
        mine = [p.data for p, r in zip(self.params, self.owners) if r == me]
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
