# expect: fail flat buffer made by torch.zeros(n) is float32 and rounds float64 parameters
# hint: dtype|float32|float64|round|precision
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        loads = [0] * self.world
        self.shards = [[] for _ in range(self.world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shards[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shards[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, shard in enumerate(self.shards):
            n = sum(p.numel() for p in shard)
            flat = torch.zeros(n)
            if src == self.rank:
                offset = 0
                for p in shard:
                    flat[offset : offset + p.numel()] = p.reshape(-1)
                    offset += p.numel()
            dist.broadcast(flat, src=src)
            offset = 0
            for p in shard:
                p.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
