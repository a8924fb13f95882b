# expect: fail wraps torch's ZeroRedundancyOptimizer instead of sharding by hand (the exercise is to build it)
# hint: ZeroRedundancyOptimizer|by hand|helper|forbid|not allowed
import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer


class answer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.zero = ZeroRedundancyOptimizer(self.params, optimizer_class=optimizer_cls, **kwargs)

    @torch.no_grad()
    def step(self):
        self.zero.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
