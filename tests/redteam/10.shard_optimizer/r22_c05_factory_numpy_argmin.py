# expect: pass a factory returns the class; greedy by bytes with numpy argmin over the loads (first rank on a tie), broadcasts in model order
# hint: 
import numpy as np
import torch
import torch.distributed as dist


def make_sharded_optimizer():
    class ShardedOptimizer:
        """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

        def __init__(self, params, optimizer_cls, **kwargs):
            self.params = list(params)
            loads = np.zeros(dist.get_world_size(), dtype=np.int64)
            self.owners = np.empty(len(self.params), dtype=np.int64)
            for i, p in enumerate(self.params):
                r = int(np.argmin(loads))  # first rank with the fewest bytes
                self.owners[i] = r
                loads[r] += p.element_size() * p.nelement()
            rank = dist.get_rank()
            mine = [p for p, r in zip(self.params, self.owners) if r == rank]
            self.optim = optimizer_cls(mine, **kwargs) if mine else None

        @torch.no_grad()
        def step(self):
            if self.optim is not None:
                self.optim.step()
            for p, r in zip(self.params, self.owners):
                dist.broadcast(p.data, src=int(r))

        def zero_grad(self):
            for p in self.params:
                p.grad = None

    return ShardedOptimizer


answer = make_sharded_optimizer()
