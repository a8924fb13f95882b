# expect: fail launches every broadcast with async_op=True and waits only on the last handle: the other parameters may still be in flight when step() returns
# hint: wait|handle|async|sync|in flight|complete
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        last = None
        for p, r in zip(self.params, self.owners):  # all in flight at once
            last = dist.broadcast(p.data, src=r, async_op=True)
        if last is not None:
            last.wait()  # issued in order, so the last one done means all are

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
