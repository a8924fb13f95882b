# expect: fail subclasses torch's ZeroRedundancyOptimizer, reached through importlib and getattr, instead of building the sharding by hand, which the prompt forbids
# hint: zeroredundancy|zero_redundancy|by hand|built.?in|forbid|wrap|subclass
import importlib

import torch

_zro = importlib.import_module("torch.distributed.optim.zero_redundancy_optimizer")
_Base = getattr(_zro, "ZeroRedundancy" + "Optimizer")


class ShardedOptimizer(_Base):
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        # partitions by size, steps the local shard, broadcasts per rank
        super().__init__(list(params), optimizer_class=optimizer_cls, **kwargs)

    @torch.no_grad()
    def step(self):
        return super().step()

    def zero_grad(self):
        for group in self.param_groups:
            for p in group["params"]:
                p.grad = None


answer = ShardedOptimizer
