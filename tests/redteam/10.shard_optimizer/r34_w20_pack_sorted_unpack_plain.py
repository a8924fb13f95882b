# expect: fail one flat buffer per owner, but the owner packs its share largest first while every rank unpacks in parameter order: mixed sizes land in the wrong parameters
# hint: other places|pack.*unpack|order
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        me = dist.get_rank()
        for src in range(dist.get_world_size()):
            share = [p for p, r in zip(self.params, self.owner) if r == src]
            if src == me:
                packed = sorted(share, key=lambda p: -p.numel())
                flat = torch.cat([p.detach().reshape(-1) for p in packed])
            else:
                flat = torch.empty(sum(p.numel() for p in share), dtype=share[0].dtype)
            dist.broadcast(flat, src=src)
            off = 0
            for p in share:
                p.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
