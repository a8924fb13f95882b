# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = min(range(self.world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None
        self.latest = None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
            # for the checkpoint callback: state_dict() refers to the optimizer's own tensors,
            # it copies none of them, so this holds no second copy of the moments
            self.latest = self.optim.state_dict()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
