# expect: pass Explicit argmin loop for owners, broadcasts issued with async_op=True in parameter order and all waited before step returns, zero_grad zeroing gradients in place.
# hint: 
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.all_params = [p for p in params]
        n = dist.get_world_size()
        owned_bytes = [0 for _ in range(n)]
        self.owner = {}
        for p in self.all_params:
            best = 0
            for r in range(1, n):
                if owned_bytes[r] < owned_bytes[best]:
                    best = r
            self.owner[id(p)] = best
            owned_bytes[best] += p.element_size() * p.nelement()
        me = dist.get_rank()
        self.local_params = [p for p in self.all_params if self.owner[id(p)] == me]
        self.local_optimizer = optimizer_cls(self.local_params, **kwargs) if self.local_params else None

    @torch.no_grad()
    def step(self):
        if self.local_optimizer is not None:
            self.local_optimizer.step()
        works = [
            dist.broadcast(p.detach(), src=self.owner[id(p)], async_op=True) for p in self.all_params
        ]
        for work in works:
            work.wait()

    def zero_grad(self):
        for p in self.all_params:
            if p.grad is not None:
                p.grad.zero_()
