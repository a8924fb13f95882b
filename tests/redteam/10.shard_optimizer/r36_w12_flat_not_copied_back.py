# expect: fail broadcasts one torch.cat flat buffer per owner but never copies it back into the parameters
# hint: (copy|back|flat|buffer|cat|unchanged|not (updated|received)|other ranks|stale)
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            loads[r] += p.numel() * p.element_size()
            self.owners.append(r)
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for src in range(dist.get_world_size()):
            group = [p for p, r in zip(self.params, self.owners) if r == src]
            if group:
                flat = torch.cat([p.reshape(-1) for p in group])  # one broadcast per rank
                dist.broadcast(flat, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
