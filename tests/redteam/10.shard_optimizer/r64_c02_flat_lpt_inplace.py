# expect: pass
# hint:
# Right, another style: owners by largest-first greedy (sorted by bytes), one flat buffer per
# (owner, dtype) made with torch.cat in the parameters' own dtype, zero_grad zeroes in place.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        order = sorted(range(len(self.params)), key=lambda i: (-nbytes[i], i))
        load = [0] * world
        owner = [None] * len(self.params)
        for i in order:
            r = min(range(world), key=lambda k: (load[k], k))
            owner[i] = r
            load[r] += nbytes[i]
        # groups in the parameters' order, the same on every rank
        self.groups = {}
        for p, r in zip(self.params, owner):
            self.groups.setdefault((r, p.dtype), []).append(p)
        mine = [p for p, r in zip(self.params, owner) if r == rank]
        self.local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        for (src, dtype), group in self.groups.items():
            flat = torch.cat([p.detach().reshape(-1) for p in group])
            dist.broadcast(flat, src=src)
            if src != dist.get_rank():
                for p, part in zip(group, flat.split([p.numel() for p in group])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
