# expect: fail assembles the updated parameters with an all-reduce of a zero-filled buffer instead of broadcasts from the owners: twice the traffic
# hint: broadcast|all.?reduce|owner|src|zeros|twice|bytes|traffic
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        owned = [0] * world
        self.owners = []
        for p in self.params:
            r = owned.index(min(owned))
            self.owners.append(r)
            owned[r] += p.numel() * p.element_size()
        self.mine = [r == rank for r in self.owners]
        self.optim = optimizer_cls([p for p, m in zip(self.params, self.mine) if m], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        # every rank writes its own parameters, zeros elsewhere; the sum is the whole model
        flat = torch.cat([p.reshape(-1) if m else torch.zeros_like(p).reshape(-1)
                          for p, m in zip(self.params, self.mine)])
        dist.all_reduce(flat)
        offset = 0
        for p in self.params:
            p.copy_(flat[offset : offset + p.numel()].view_as(p))
            offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
