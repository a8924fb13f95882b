# expect: fail the bytes each rank owns are counted in a class attribute, so a second instance goes on counting from the first one's loads
# hint: instance|class|from zero|carr|shared|previous|first|balanc|bytes|owner
import torch
import torch.distributed as dist


class ShardedOptimizer:
    _owned_bytes = {}  # rank -> bytes it owns

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = self._owned_bytes
        for r in range(world):
            loads.setdefault(r, 0)
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
