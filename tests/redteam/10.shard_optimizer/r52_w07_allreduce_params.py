# expect: fail parameters sent by an all-reduce of the owner's values and the others' zeros: the right values at twice a broadcast's traffic
# hint: broadcast|all_reduce|all-reduce|allreduce|collective
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
        for p, owner in zip(self.params, self.owners):
            if owner != self.rank:
                p.zero_()  # x + 0 + 0 == x exactly: the sum is the owner's value
            dist.all_reduce(p.data)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
