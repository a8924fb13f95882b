# expect: fail launches the broadcasts with async_op=True and never waits on their handles, so step() can return before the other ranks' parameters have arrived
# hint: wait|async|handle|not (yet )?(arrived|complete|finished)|before (the broadcast|it) (finish|complete)|race|same.*parameters.*end
# Wrong: the parameters must be the same on every rank when step() returns; without
# handle.wait() the non-owners' copies are written by gloo's thread whenever it gets to them.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o, async_op=True)  # overlap the sends

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
