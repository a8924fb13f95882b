# expect: fail step() all-gathers the gradients of its own parameters and takes their mean before stepping: the gradients arrive averaged, so the values are unchanged but each step adds world_size times the gradients' bytes of traffic and copies
# hint: gather|gradient|grad|already|averag|again|extra|collective
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == dist.get_rank()]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        # make sure every rank steps with the same gradient (mean over ranks)
        for p in self.params:
            if p.grad is not None:
                parts = [torch.empty_like(p.grad) for _ in range(self.world)]
                dist.all_gather(parts, p.grad.contiguous())
                p.grad.copy_(torch.stack(parts).mean(0))
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
