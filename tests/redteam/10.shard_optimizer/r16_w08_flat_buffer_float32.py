# expect: fail the flat buffer per owner is allocated with the default dtype (float32), so float64 or bfloat16 parameters are rounded or cast on the way
# hint: dtype|float32|float64|default dtype|torch\.empty|torch\.zeros|precision|cast
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        owned = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = owned.index(min(owned))
            self.shares[r].append(p)
            owned[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):  # one broadcast per rank
            flat = torch.zeros(sum(p.numel() for p in share))
            if src == dist.get_rank():
                offset = 0
                for p in share:
                    flat[offset : offset + p.numel()] = p.reshape(-1)
                    offset += p.numel()
            dist.broadcast(flat, src=src)
            offset = 0
            for p in share:
                p.copy_(flat[offset : offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
