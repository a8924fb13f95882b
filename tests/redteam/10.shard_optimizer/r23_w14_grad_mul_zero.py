# expect: fail zero_grad() "zeroes" the gradients with p.grad.mul_(0): an inf or nan in a gradient (an overflow, a bad batch) stays nan (0 * inf = nan), so the next step starts from nan instead of zeros
# hint: nan|inf|mul|zero_|fill|multipl
# open: every gradient in the cases is finite, where mul_(0) zeroes it as zero_() does: only a non-finite gradient (inf * 0 is nan) tells it apart
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == dist.get_rank()]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    @torch.no_grad()
    def zero_grad(self):
        for p in self.params:  # every rank's gradients, kept allocated
            if p.grad is not None:
                p.grad.mul_(0)


answer = ShardedOptimizer
