# expect: fail only the non-owners call dist.broadcast (the owner "already has it" and skips the call), so the ranks' collectives do not match: a hang, an error or wrong parameters
# hint: broadcast|every rank|all (the )?ranks|collective|hang|deadlock|time(d)? ?out|mismatch|owner.{0,40}(too|also|itself|skip|call)
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            if owner != self.rank:  # the owner already holds its updated parameter
                dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
