# expect: fail wraps torch.distributed.optim.ZeroRedundancyOptimizer instead of building it by hand
# hint: ZeroRedundancyOptimizer|by hand|wrap
import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.zero = ZeroRedundancyOptimizer(self.params, optimizer_class=optimizer_cls, **kwargs)

    @torch.no_grad()
    def step(self):
        self.zero.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
