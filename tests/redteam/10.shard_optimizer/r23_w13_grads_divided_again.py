# expect: fail divides every gradient by the world size in step() though the gradients arrive averaged; Adam is nearly blind to the scale (only eps, weight_decay or another optimizer such as SGD shows the n-times-too-small update)
# hint: averag|divid|world|grad|already|twice|scale
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, r in zip(self.params, self.owner) if r == dist.get_rank()]
        self.optim = optimizer_cls(self.mine, **kwargs) if self.mine else None

    @torch.no_grad()
    def step(self):
        for p in self.mine:  # average over the ranks, as DDP does
            if p.grad is not None:
                p.grad.div_(self.world)
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
