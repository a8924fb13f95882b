# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: owners balanced by elements (one dtype per model), one flat torch.cat buffer per owner."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        rank = dist.get_rank()
        counts = [0] * world
        self.shards = [[] for _ in range(world)]
        for p in self.params:
            r = min(range(world), key=lambda k: (counts[k], k))
            self.shards[r].append(p)
            counts[r] += p.numel()  # one dtype per model: elements are proportional to bytes
        self.optimizer = optimizer_cls(self.shards[rank], **kwargs) if self.shards[rank] else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for src, shard in enumerate(self.shards):
            if not shard:
                continue
            # every rank flattens its own copy: same size and dtype everywhere; the owner's is sent
            flat = torch.cat([p.detach().reshape(-1) for p in shard])
            dist.broadcast(flat, src=src)
            if src != dist.get_rank():
                for p, part in zip(shard, flat.split([p.numel() for p in shard])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
