# expect: fail zero_grad() calls the local optimizer's zero_grad, which clears only this rank's own parameters: the others' gradients are left and accumulate
# hint: zero_grad|every (param|weight)|all (the )?(param|weight)s|not only|other ranks?'?s? (param|weight)|does not own|not own|gradients?.{0,40}(clear|none|left|stale|accumulat)
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
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        self.optim.zero_grad(set_to_none=True)
