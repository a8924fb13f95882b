# expect: fail launches the broadcasts asynchronously in step() and waits for them only in the next zero_grad(), to overlap them with what follows: step() returns before the parameters are updated on the other ranks
# hint: wait|async|handle|sync|before step\(\) returns|updated
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
        self.pending = []

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        self.pending = [dist.broadcast(p.data, src=r, async_op=True) for p, r in zip(self.params, self.owners)]

    def zero_grad(self):
        for work in self.pending:  # the broadcasts ran while the caller logged, loaded data...
            work.wait()
        self.pending = []
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
