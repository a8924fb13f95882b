# expect: fail passes only lr on to optimizer_cls; the other kwargs (betas, eps, weight_decay, ...) are dropped
# hint: kwargs|\blr\b|betas|weight.?decay|\beps\b|argument|option|hyper.?param|pass(ed)? on|optimizer_cls
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, lr=kwargs.get("lr", 1e-3))

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
