# expect: fail rank read once when the class is defined (before init_process_group: 0), so every rank plans as rank 0
# hint: get_rank|rank 0|owner|not updated|differ from
import torch
import torch.distributed as dist


class ShardedOptimizer:
    rank = dist.get_rank() if dist.is_available() and dist.is_initialized() else 0

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
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
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
