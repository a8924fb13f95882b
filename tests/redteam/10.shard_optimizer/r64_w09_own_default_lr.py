# expect: fail adds a learning rate of its own (lr=0.01 as a default argument) where the caller gives none, instead of Adam's own default
# hint: \blr\b|learning.?rate|kwargs|default|as they are|of your own|pass(ed)? on
# Wrong: `lr=0.01` in the signature is always passed to optimizer_cls, so the case without lr
# runs Adam at 0.01, not its default 0.001; cases that give lr pass.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, lr=0.01, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optimizer = optimizer_cls(mine, lr=lr, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
