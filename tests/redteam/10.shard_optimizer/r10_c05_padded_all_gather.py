# expect: pass each rank packs its own parameters into a padded chunk, one all_gather hands every rank all chunks
# hint: -
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1; the updated shards travel as one padded all_gather instead of n broadcasts."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        load = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in sorted(self.params, key=lambda t: -t.numel() * t.element_size()):
            r = min(range(self.world), key=lambda i: (load[i], i))
            self.shares[r].append(p)
            load[r] += p.numel() * p.element_size()
        self.chunk = max(sum(p.numel() for p in s) for s in self.shares)
        dtype = self.params[0].dtype
        self.send = torch.zeros(self.chunk, dtype=dtype)
        self.gathered = [torch.zeros(self.chunk, dtype=dtype) for _ in range(self.world)]
        self.optimizer = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        off = 0
        for p in self.shares[self.rank]:
            self.send[off:off + p.numel()].copy_(p.reshape(-1))
            off += p.numel()
        dist.all_gather(self.gathered, self.send)
        for r, share in enumerate(self.shares):
            if r == self.rank:
                continue
            off = 0
            for p in share:
                p.copy_(self.gathered[r][off:off + p.numel()].view_as(p))
                off += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
