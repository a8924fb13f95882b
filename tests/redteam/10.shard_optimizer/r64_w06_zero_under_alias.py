# expect: fail wraps torch.distributed.optim.ZeroRedundancyOptimizer (imported through its module, under another name) instead of building ZeRO-1 by hand
# hint: ZeroRedundancyOptimizer|zero_redundancy|by hand|wrap|built.?in|PyTorch's own
# Wrong: the prompt says a class that wraps ZeroRedundancyOptimizer fails; importing it through
# its submodule as `_zro` hides the name but not the class.
import torch
from torch.distributed.optim import zero_redundancy_optimizer as _zro


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self._opt = _zro.ZeroRedundancyOptimizer(
            self.params, optimizer_class=optimizer_cls, **kwargs
        )

    @torch.no_grad()
    def step(self):
        self._opt.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
