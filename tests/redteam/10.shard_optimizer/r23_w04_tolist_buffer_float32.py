# expect: fail builds each owner's flat buffer with torch.tensor(python list), which is the default float32: float64 parameters are rounded on their way to the other ranks (and every value goes through the host as a Python float)
# hint: float32|float64|dtype|round|tolist|torch\.tensor|precision
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
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
        for src, share in enumerate(self.shares):  # one broadcast per owner
            if not share:
                continue
            values = []
            for p in share:
                values += p.reshape(-1).tolist()
            flat = torch.tensor(values)
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
