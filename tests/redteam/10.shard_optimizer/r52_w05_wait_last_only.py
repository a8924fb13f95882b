# expect: fail async broadcasts, waits only on the last handle, assuming they complete in order
# hint: wait|async|synchron|complet|handle
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            owner = loads.index(min(loads))
            self.owners.append(owner)
            loads[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        work = None
        for p, owner in zip(self.params, self.owners):
            work = dist.broadcast(p.data, src=owner, async_op=True)
        if work is not None:
            work.wait()  # the last one done means all are done

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
