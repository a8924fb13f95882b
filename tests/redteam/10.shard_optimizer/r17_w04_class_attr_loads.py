# expect: fail byte counts kept in a class attribute carry over from one instance to the next
# hint: instance|class|zero|carr|previous|earlier|first ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    loads = []  # bytes owned per rank

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        rank = dist.get_rank()
        if not self.loads:
            self.loads.extend([0] * world)
        self.owners = []
        for p in self.params:
            r = self.loads.index(min(self.loads))
            self.owners.append(r)
            self.loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
