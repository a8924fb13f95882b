# expect: fail each owner's flat buffer is sent as float32 ("gloo's native type"), rounding float64 parameters
# hint: dtype|float64|float32|round|precision|own type
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, self.rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        mine = self.shares[self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            # one flat buffer per owner; float32 on the wire, gloo's best-supported type
            flat = torch.cat([p.detach().reshape(-1) for p in share]).to(torch.float32)
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))  # copy_ casts back to the parameter's dtype

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
