# expect: fail cuts each owner's flat buffer back with flat.chunk(len(share)), equal pieces: right only while every parameter of a share has the same number of elements (the 8 equal weights), breaks on weights and biases of different sizes
# hint: chunk|split|size|numel|equal|differ|shape|view
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        mine = self.shares[rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.reshape(-1) for p in share])  # keeps the dtype
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.chunk(len(share))):  # one piece per parameter
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
