# expect: fail keeps params as given; from model.parameters() (a generator) zero_grad later iterates an exhausted generator and clears nothing
# hint: zero_grad|clear|generator|exhaust|grad.*(left|kept|not|stale)|accumul
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = params  # what the caller gave, as torch.optim keeps it
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.plan = []  # (parameter, owner), in the same order on every rank
        for p in self.params:
            r = loads.index(min(loads))
            self.plan.append((p, r))
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in self.plan if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in self.plan:
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
