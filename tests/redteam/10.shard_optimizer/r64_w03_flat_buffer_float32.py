# expect: fail the flat broadcast buffer is made with torch.zeros(n), float32, so float64 parameters are rounded on their way to the other ranks
# hint: dtype|float.?64|float.?32|double|precision|round|torch\.zeros
# Wrong: one buffer per owner (right idea), but torch.zeros(n) is float32 whatever the
# parameters are; copying float64 values through it rounds them on every rank, owner included.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.shares[r].append(p)
            load[r] += p.numel() * p.element_size()
        mine = self.shares[rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.zeros(sum(p.numel() for p in share))
            offset = 0
            for p in share:
                flat[offset : offset + p.numel()] = p.reshape(-1)
                offset += p.numel()
            dist.broadcast(flat, src=src)
            offset = 0
            for p in share:
                p.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
