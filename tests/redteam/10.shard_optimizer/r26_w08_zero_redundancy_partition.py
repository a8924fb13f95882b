# expect: fail builds a torch ZeroRedundancyOptimizer (over a stateless SGD) only to borrow its partition (_partition_parameters), then its own optimizer over this rank's share: the exercise asks for the ZeRO-1 logic by hand, and ZeroRedundancyOptimizer is the helper it names as refused
# hint: ZeroRedundancyOptimizer|by hand|own|partition|wrap|library|forbid
import torch
import torch.distributed as dist
from torch.distributed.optim import ZeroRedundancyOptimizer


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        # torch's own partition (largest first, to the rank with the fewest elements);
        # SGD without momentum keeps no state, and the helper is dropped at once
        planner = ZeroRedundancyOptimizer(self.params, optimizer_class=torch.optim.SGD, lr=0.0)
        shares = planner._partition_parameters()
        del planner
        self.owner = {}
        for r, groups in enumerate(shares):
            for group in groups:
                for p in group["params"]:
                    self.owner[id(p)] = r
        mine = [p for p in self.params if self.owner[id(p)] == dist.get_rank()]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p in self.params:
            dist.broadcast(p.data, src=self.owner[id(p)])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
