# expect: pass contiguous ranges by the start offset of each parameter's bytes (each rank within the largest parameter of total/n), one flat broadcast per (owner, dtype) group in that dtype
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        total = sum(nbytes)
        self.owner, start = [], 0
        for n in nbytes:
            self.owner.append(min(self.world - 1, start * self.world // total) if total else 0)
            start += n
        rank = dist.get_rank()
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None
        self.groups = []  # (owner, [params]) with one dtype and device each, the same on all ranks
        for r in range(self.world):
            by_kind = {}
            for p, o in zip(self.params, self.owner):
                if o == r:
                    by_kind.setdefault((p.dtype, p.device), []).append(p)
            self.groups += [(r, ps) for ps in by_kind.values()]

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for r, ps in self.groups:
            flat = torch.cat([p.reshape(-1) for p in ps])  # in the group's own dtype
            dist.broadcast(flat, src=r)
            if dist.get_rank() != r:
                for p, part in zip(ps, flat.split([p.numel() for p in ps])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()


answer = ShardedOptimizer
