# expect: pass owners kept in a dict; all broadcasts launched with async_op=True, then every handle waited
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        held = dict.fromkeys(range(self.world), 0)
        self.owners = []
        for p in self.params:
            dst = min(held, key=held.get)  # ties go to the lowest rank
            held[dst] += p.element_size() * p.nelement()
            self.owners.append(dst)
        rank = dist.get_rank()
        local = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.local_optimizer = optimizer_cls(local, **kwargs) if local else None

    def step(self):
        with torch.no_grad():
            if self.local_optimizer is not None:
                self.local_optimizer.step()
            works = [dist.broadcast(p.detach(), src=o, async_op=True)
                     for p, o in zip(self.params, self.owners)]
            for w in works:
                w.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
