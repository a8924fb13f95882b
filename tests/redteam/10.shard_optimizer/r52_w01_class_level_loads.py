# expect: fail bytes owned per rank kept on the class, so a second instance keeps counting from the first one's totals
# hint: instance|from zero|carr(y|ies|ied) over|previous|earlier|balanc|half the bytes|share
import torch
import torch.distributed as dist


class ShardedOptimizer:
    owned_bytes = {}  # rank -> bytes owned so far

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        for r in range(world):
            self.owned_bytes.setdefault(r, 0)
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: self.owned_bytes[r])
            self.owners.append(owner)
            self.owned_bytes[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
