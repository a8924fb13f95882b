# expect: pass largest-first greedy via a stable sorted(reverse=True) on bytes, broadcasts rank by rank, grads zeroed in place with _foreach_zero_
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        self.shares = [[] for _ in range(world)]
        loads = [0] * world
        # sorted() is stable even with reverse=True: equal sizes keep the model's order
        for p in sorted(self.params, key=lambda p: p.element_size() * p.numel(), reverse=True):
            r = min(range(world), key=lambda r: loads[r])
            self.shares[r].append(p)
            loads[r] += p.element_size() * p.numel()
        self.optim = optimizer_cls(self.shares[rank], **kwargs) if self.shares[rank] else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src, share in enumerate(self.shares):  # rank 0's, then rank 1's, ...
            for p in share:
                dist.broadcast(p.data, src=src)

    @torch.no_grad()
    def zero_grad(self):
        grads = [p.grad for p in self.params if p.grad is not None]
        if grads:
            torch._foreach_zero_(grads)


answer = ShardedOptimizer
