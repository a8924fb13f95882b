# expect: pass one flat torch.zeros buffer of all parameters (ordered by owner), filled by one broadcast per owner segment
# hint: -
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        self.rank, self.world = rank, world
        totals = [0] * world
        owner_of = {}
        for i, p in enumerate(self.params):
            best = 0
            for r in range(1, world):
                if totals[r] < totals[best]:
                    best = r
            owner_of[i] = best
            totals[best] += p.numel() * p.element_size()
        # group parameters by owner; the flat buffer holds them in that order
        self.order = [[i for i in range(len(self.params)) if owner_of[i] == r] for r in range(world)]
        numel = sum(p.numel() for p in self.params)
        self.flat = torch.zeros(numel, dtype=self.params[0].dtype)
        self.segments = []
        offset = 0
        for r in range(world):
            n = sum(self.params[i].numel() for i in self.order[r])
            self.segments.append((offset, n))
            offset += n
        self.optim = optimizer_cls([self.params[i] for i in self.order[rank]], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for r in range(self.world):
            start, n = self.segments[r]
            if n == 0:
                continue
            seg = self.flat.narrow(0, start, n)
            idx = self.order[r]
            if r == self.rank:
                torch.cat([self.params[i].reshape(-1) for i in idx], out=seg)
            dist.broadcast(seg, src=r)
            off = 0
            for i in idx:
                p = self.params[i]
                p.copy_(seg[off:off + p.numel()].view_as(p))
                off += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
