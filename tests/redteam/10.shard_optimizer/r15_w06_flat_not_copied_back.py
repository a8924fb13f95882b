# expect: fail one flat buffer per owner is broadcast but never copied back into the parameters
# hint: copy|flat|buffer|unflatten|back into|not (updated|written)|stale|receiv
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world = dist.get_world_size()
        loads = [0] * self.world
        self.shares = [[] for _ in range(self.world)]
        for p in self.params:
            r = min(range(self.world), key=lambda k: loads[k])
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.opt = optimizer_cls(self.shares[dist.get_rank()], **kwargs)

    @torch.no_grad()
    def step(self):
        self.opt.step()
        for src, share in enumerate(self.shares):
            # one broadcast per rank: the fixed cost paid once
            flat = torch.cat([p.data.reshape(-1) for p in share])
            dist.broadcast(flat, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
