# expect: fail contiguous chunks of len // world: on 3 ranks the last weights have no owner
# hint: owner|no rank owns|every (weight|parameter)|world size.*divid|remainder|3 ranks|unowned|not (updated|stepped)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, self.rank = dist.get_world_size(), dist.get_rank()
        self.chunk = len(self.params) // self.world  # parameters per rank
        self.mine = self.params[self.rank * self.chunk:(self.rank + 1) * self.chunk]
        self.opt = optimizer_cls(self.mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for src in range(self.world):
            for p in self.params[src * self.chunk:(src + 1) * self.chunk]:
                dist.broadcast(p.data, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
