# expect: pass Owners from a running-total greedy written with enumerate, one flat buffer per owner in the share's own dtype (per-parameter broadcasts when an owner's share mixes dtypes), owners visited 0..n-1 on every rank.
# hint: 
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        totals = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            owner = totals.index(min(totals))  # the first rank with the fewest bytes
            self.shares[owner].append(p)
            totals[owner] += p.numel() * p.element_size()
        mine = self.shares[self.rank]
        self.inner = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.inner is not None:
            self.inner.step()
        for owner, share in enumerate(self.shares):
            if not share:
                continue
            dtypes = {p.dtype for p in share}
            if len(dtypes) != 1:
                for p in share:
                    dist.broadcast(p.data, src=owner)
                continue
            numels = [p.numel() for p in share]
            if owner == self.rank:
                flat = torch.cat([p.reshape(-1) for p in share])
            else:
                flat = torch.empty(sum(numels), dtype=share[0].dtype, device=share[0].device)
            dist.broadcast(flat, src=owner)
            if owner != self.rank:
                for p, chunk in zip(share, torch.split(flat, numels)):
                    p.copy_(chunk.view_as(p))

    def zero_grad(self):
        for share in self.shares:
            for p in share:
                p.grad = None
