# expect: pass greedy by bytes with a loads list, one flat buffer per owner built with torch.cat, received into torch.empty and copied back with split
# hint: .*
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = loads.index(min(loads))  # first rank with the fewest bytes
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            sizes = [p.numel() for p in share]
            if src == self.rank:
                flat = torch.cat([p.reshape(-1) for p in share])
            else:
                flat = torch.empty(sum(sizes), dtype=share[0].dtype, device=share[0].device)
            dist.broadcast(flat, src=src)
            if src != self.rank:
                for p, part in zip(share, flat.split(sizes)):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
