# expect: fail broadcasts p.data.contiguous(): for a non-contiguous parameter (a transposed or strided view) that is a temporary copy, so the receivers write the owner's update into the copy and their parameter stays stale
# hint: contiguous|copy|in place|stride|temporar|non.?contig
# open: every case's parameters are contiguous, as nn.Linear's are, where p.data.contiguous() is p.data itself: only a non-contiguous parameter (a transposed weight) tells it apart
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        held = [0] * world
        self.owners = []
        for p in self.params:
            r = held.index(min(held))
            self.owners.append(r)
            held[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == dist.get_rank()]
        self.local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        for p, r in zip(self.params, self.owners):
            # collectives want contiguous memory
            dist.broadcast(p.data.contiguous(), src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
