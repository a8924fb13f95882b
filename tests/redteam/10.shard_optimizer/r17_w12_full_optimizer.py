# expect: fail every rank builds the optimizer over all parameters, so the state is not sharded
# hint: state|shard|own|1/n|memory|moment|exp_avg
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.params, **kwargs)  # steps everything; the owners then agree

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
