# expect: pass
# hint:
import torch
import torch.distributed as dist
from torch.nn.utils import parameters_to_vector


class ShardedOptimizer:
    """ZeRO-1: a contiguous split of the parameters by cumulative bytes (each where its middle falls); a flat buffer per owner."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        self.rank = dist.get_rank()
        sizes = [p.numel() * p.element_size() for p in self.params]
        total = sum(sizes)
        self.owner_of = []
        start = 0
        for size in sizes:
            # the rank whose n-th of the bytes holds this parameter's middle byte
            middle2 = 2 * start + size  # twice the middle's offset, to stay in integers
            owner = min(self.world - 1, middle2 * self.world // (2 * total)) if total else 0
            self.owner_of.append(owner)
            start += size
        self.groups = {
            r: [p for p, o in zip(self.params, self.owner_of) if o == r] for r in range(self.world)
        }
        mine = self.groups[self.rank]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for owner in range(self.world):
            group = self.groups[owner]
            if not group:
                continue
            if owner == self.rank:
                flat = parameters_to_vector(group)  # torch.cat of the views: the params' dtype
            else:
                n = sum(p.numel() for p in group)
                flat = torch.empty(n, dtype=group[0].dtype, device=group[0].device)
            dist.broadcast(flat, src=owner)
            if owner != self.rank:
                offset = 0
                for p in group:
                    p.copy_(flat[offset : offset + p.numel()].view_as(p))
                    offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
