# expect: pass subclass of torch.optim.Optimizer (inherited zero_grad), largest-first greedy
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer(torch.optim.Optimizer):
    """A torch.optim.Optimizer itself: its param_groups hold every parameter, its state none."""

    def __init__(self, params, optimizer_cls, **kwargs):
        super().__init__(list(params), defaults={})
        self.all_params = [p for g in self.param_groups for p in g["params"]]
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = {}
        # largest first, then each to the lightest rank (ties: the lower rank); same on every rank
        order = sorted(range(len(self.all_params)),
                       key=lambda i: -self.all_params[i].numel() * self.all_params[i].element_size())
        for i in order:
            r = min(range(world), key=lambda k: (loads[k], k))
            self.owners[i] = r
            loads[r] += self.all_params[i].numel() * self.all_params[i].element_size()
        mine = [p for i, p in enumerate(self.all_params) if self.owners[i] == dist.get_rank()]
        self.inner = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self, closure=None):
        self.inner.step()
        for i, p in enumerate(self.all_params):
            dist.broadcast(p, src=self.owners[i])
        return None


answer = ShardedOptimizer
