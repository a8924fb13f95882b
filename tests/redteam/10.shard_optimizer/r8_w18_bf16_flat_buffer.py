# expect: fail sends each owner's flat buffer in bfloat16 to halve the bytes, so every non-owned parameter is rounded to bfloat16 and drifts far beyond 1e-6 from DDP
# hint: bfloat16|bf16|dtype|precision|half|float32|round
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = loads.index(min(loads))
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            flat = torch.cat([p.reshape(-1) for p in share]).to(torch.bfloat16)  # half the bytes
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
