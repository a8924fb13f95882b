# expect: fail one flat buffer per owner made by torch.zeros(n): float32, rounds float64 parameters
# hint: (dtype|float32|float64|round|precision|torch\.zeros|buffer|own dtype)
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
            if not group:
                continue
            flat = torch.zeros(sum(p.numel() for p in group))
            if src == dist.get_rank():
                flat.copy_(torch.cat([p.reshape(-1) for p in group]))
            dist.broadcast(flat, src=src)
            offset = 0
            for p in group:
                p.copy_(flat[offset:offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
