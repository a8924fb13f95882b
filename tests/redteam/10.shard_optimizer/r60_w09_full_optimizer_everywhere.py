# expect: fail builds the optimizer over all the parameters on every rank and steps them all, then broadcasts from the owners: right numbers, optimizer state not sharded
# hint: state|memory|bytes|1/n|shard|all param|every param|own|moment
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.params, **kwargs)  # the owners' broadcast decides anyway

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
