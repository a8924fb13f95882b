# expect: fail owners given by index (i % world), not balanced by bytes
# hint: byte|index|balanc|round.?robin
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        self.mine = self.params[self.rank :: self.world]  # as chapter 10.7's mixed-precision cell does
        self.optim = optimizer_cls(self.mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for i, p in enumerate(self.params):
            dist.broadcast(p.data, src=i % self.world)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
