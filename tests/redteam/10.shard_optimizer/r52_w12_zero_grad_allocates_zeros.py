# expect: fail zero_grad gives every parameter a fresh zeros_like grad, even one that had none: Adam then steps (and counts) the unused bias at step 0
# hint: None|zeros|no grad|without (a )?grad|skip|unused|left out|bias|step 0|zero_grad
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
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        # zeros rather than None, as zero_grad(set_to_none=False) leaves them
        for p in self.params:
            p.grad = torch.zeros_like(p)


answer = ShardedOptimizer
