# expect: fail flattens every owner's parameters into one float64 buffer "to be safe": the values survive, but float32 (or bfloat16) parameters travel as float64, two (four) times their bytes, not in their own dtype
# hint: dtype|own dtype|float64|bytes|twice|upcast
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = min(range(world), key=lambda k: loads[k])
            self.shares[r].append(p)
            loads[r] += p.nbytes
        self.optim = optimizer_cls(self.shares[rank], **kwargs) if self.shares[rank] else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src, share in enumerate(self.shares):
            if not share:
                continue
            # float64 holds every float dtype exactly: one buffer per owner, whatever the dtypes
            flat = torch.cat([p.detach().reshape(-1).to(torch.float64) for p in share])
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
