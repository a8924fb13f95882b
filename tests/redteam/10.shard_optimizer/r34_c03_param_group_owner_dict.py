# expect: pass owners kept in a dict keyed by the parameter, bytes balanced with a list of loads (argmin by index), broadcast p itself under no_grad, zero_grad via set_to_none loop with requires_grad check
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.all_params = list(params)
        n = dist.get_world_size()
        loads = torch.zeros(n, dtype=torch.int64)
        self.owner_of = {}
        for p in self.all_params:
            r = int(torch.argmin(loads))
            self.owner_of[p] = r
            loads[r] += p.nelement() * p.element_size()
        me = dist.get_rank()
        self.local = optimizer_cls([p for p in self.all_params if self.owner_of[p] == me], **kwargs)

    @torch.no_grad()
    def step(self):
        self.local.step()
        for p in self.all_params:
            dist.broadcast(p, src=self.owner_of[p])

    def zero_grad(self):
        for p in self.all_params:
            if p.requires_grad:
                p.grad = None


answer = ShardedOptimizer
