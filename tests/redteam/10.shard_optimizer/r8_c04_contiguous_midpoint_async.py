# expect: pass contiguous blocks balanced by bytes (each parameter to the rank its byte midpoint falls in), one async flat broadcast per owner, all waited before copying back
# hint: .*
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, world = dist.get_rank(), dist.get_world_size()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        total = sum(nbytes)
        self.shares = [[] for _ in range(world)]
        start = 0
        for p, b in zip(self.params, nbytes):
            middle = start + b / 2
            r = min(world - 1, int(middle * world // total))
            self.shares[r].append(p)
            start += b
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        pending = []
        for src, share in enumerate(self.shares):
            if not share:
                continue
            flat = torch.cat([p.detach().reshape(-1) for p in share])
            pending.append((share, flat, dist.broadcast(flat, src=src, async_op=True)))
        for share, flat, work in pending:
            work.wait()
            offset = 0
            for p in share:
                p.copy_(flat[offset:offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
