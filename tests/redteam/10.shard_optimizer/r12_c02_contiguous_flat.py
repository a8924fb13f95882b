# expect: pass
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1 with contiguous shares split by cumulative bytes, one flat broadcast per owner."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        sizes = [p.numel() * p.element_size() for p in self.params]
        total = sum(sizes)
        # each parameter goes to the rank whose slice of [0, total) holds its midpoint
        self.shares = [[] for _ in range(self.world)]
        before = 0
        for p, size in zip(self.params, sizes):
            mid = before + size / 2
            owner = min(int(mid * self.world // total), self.world - 1)
            self.shares[owner].append(p)
            before += size
        mine = self.shares[self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for owner, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            dist.broadcast(flat, src=owner)
            if owner != self.rank:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for share in self.shares:
            for p in share:
                p.grad = None
