# expect: pass per-parameter async broadcasts, all waited through torch.futures.wait_all on their futures before step() returns; owners largest-first by bytes
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        nbytes = [p.numel() * p.element_size() for p in self.params]
        totals = [0] * dist.get_world_size()
        self.owner = [0] * len(self.params)
        for i in sorted(range(len(nbytes)), key=lambda i: (-nbytes[i], i)):
            r = totals.index(min(totals))
            self.owner[i] = r
            totals[r] += nbytes[i]
        rank = dist.get_rank()
        self.optimizer = None
        owned = [p for i, p in enumerate(self.params) if self.owner[i] == rank]
        if owned:
            self.optimizer = optimizer_cls(owned, **kwargs)

    @torch.no_grad()
    def step(self):
        if self.optimizer:
            self.optimizer.step()
        works = [
            dist.broadcast(p.data, src=self.owner[i], async_op=True)
            for i, p in enumerate(self.params)
        ]
        torch.futures.wait_all([w.get_future() for w in works])

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
