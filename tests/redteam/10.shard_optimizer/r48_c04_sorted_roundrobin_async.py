# expect: pass owners round-robin over the parameters sorted by bytes (largest first: every rank within the largest parameter of 1/n), broadcasts launched async and every handle waited before step() returns
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = tuple(params)
        self.world = dist.get_world_size()
        by_size = sorted(range(len(self.params)), key=lambda i: -self.params[i].nbytes)  # stable
        self.owner = {i: k % self.world for k, i in enumerate(by_size)}
        me = dist.get_rank()
        mine = [p for i, p in enumerate(self.params) if self.owner[i] == me]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        works = [dist.broadcast(p.data, src=self.owner[i], async_op=True) for i, p in enumerate(self.params)]
        for w in works:
            w.wait()

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad = None


answer = ShardedOptimizer
