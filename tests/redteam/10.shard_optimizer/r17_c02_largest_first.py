# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1 with a largest-first greedy split of the bytes; a broadcast per parameter."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        # largest first (a stable sort, so every rank gets the same order), each to the lightest rank
        order = sorted(range(len(self.params)), key=lambda i: -nbytes[i])
        loads = [0] * self.world
        self.owner = [None] * len(self.params)
        for i in order:
            r = loads.index(min(loads))
            self.owner[i] = r
            loads[r] += nbytes[i]
        own = [p for i, p in enumerate(self.params) if self.owner[i] == self.rank]
        self.local_optimizer = optimizer_cls(own, **kwargs) if own else None

    @torch.no_grad()
    def step(self):
        if self.local_optimizer is not None:
            self.local_optimizer.step()
        for i, p in enumerate(self.params):  # the parameters' order: the same on every rank
            dist.broadcast(p.data, src=self.owner[i])

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()


answer = ShardedOptimizer
