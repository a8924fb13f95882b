# expect: fail sets torch.set_default_dtype to the parameters' dtype for the flat buffers and never restores it (a process-wide setting)
# hint: default_dtype|process|restore|setting
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
        torch.set_default_dtype(self.params[0].dtype)
        for src in range(dist.get_world_size()):
            share = [p for p, r in zip(self.params, self.owner) if r == src]
            flat = torch.zeros(sum(p.numel() for p in share))
            if src == dist.get_rank():
                flat.copy_(torch.cat([p.reshape(-1) for p in share]))
            dist.broadcast(flat, src=src)
            off = 0
            for p in share:
                p.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
