# expect: fail wraps torch.distributed.optim.ZeroRedundancyOptimizer instead of building it by hand
# hint: ZeroRedundancyOptimizer|by hand
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        from torch.distributed.optim import ZeroRedundancyOptimizer
        self.params = list(params)
        self.optim = ZeroRedundancyOptimizer(self.params, optimizer_class=optimizer_cls, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
