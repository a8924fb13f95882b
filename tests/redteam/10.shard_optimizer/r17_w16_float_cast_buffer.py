# expect: fail flat buffer cast to float32 (.float()) before the broadcast, rounding float64 parameters
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
            flat = torch.cat([p.reshape(-1) for p in shard]).float()  # gloo and NCCL like float32
            dist.broadcast(flat, src=src)
            for p, part in zip(shard, flat.split([p.numel() for p in shard])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
