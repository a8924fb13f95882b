# expect: fail reuses chapter 10.7's fp32_masters/master_step: the optimizer steps float32 masters of its parameters and copies them back, which for float32 parameters aliases them (fine) but for float64 parameters rounds every owned parameter to float32 at each step (and keeps Adam's moments in float32)
# hint: float32|float64|master|\.float|round|dtype|own dtype|precision
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        self.mine = [p for p, r in zip(self.params, self.owners) if r == me]
        # float32 masters of the parameters this rank updates, as chapter 10.7's fp32_masters
        self.masters = [p.detach().float().requires_grad_() for p in self.mine]
        self.optim = optimizer_cls(self.masters, **kwargs) if self.mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            for p, m in zip(self.mine, self.masters):
                m.grad = None if p.grad is None else p.grad.float()
            self.optim.step()
            for p, m in zip(self.mine, self.masters):
                p.copy_(m)
                m.grad = None
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
