# expect: fail keeps the caller's params object and clears gradients by iterating it again: when params is model.parameters() (a generator, used up in __init__) zero_grad clears nothing and gradients pile up
# hint: zero_grad|clear|generator|iterat|accumulat|grad
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = params  # as torch.optim.Optimizer keeps its param_groups
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.plan = []  # (parameter, owner), in the order every rank broadcasts them
        for p in params:
            r = min(range(world), key=loads.__getitem__)
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
