# expect: fail optimizer built over all parameters (state stays 1/n only because others' grads are hidden), not over this rank's own
# hint: own (param|share|weight)|my_params|param_groups|(over|of) (all|every)|all (the )?param|not own
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
            owner = loads.index(min(loads))
            self.owners.append(owner)
            loads[owner] += p.numel() * p.element_size()
        # one optimizer like DDP's; Adam creates state lazily, only for params with a grad
        self.optim = optimizer_cls(self.params, **kwargs)

    @torch.no_grad()
    def step(self):
        for p, owner in zip(self.params, self.owners):
            if owner != self.rank:
                p.grad = None  # not ours: Adam skips it and keeps no moments for it
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
