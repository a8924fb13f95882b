# expect: fail one flat buffer per owner made with torch.zeros(n), float32 whatever the parameters' dtype: float64 parameters are rounded in transit
# hint: dtype|float32|float64|round|precision|buffer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[self.rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for src, share in enumerate(self.shares):
            n = sum(p.numel() for p in share)
            flat = torch.zeros(n)
            offset = 0
            for p in share:
                flat[offset:offset + p.numel()] = p.reshape(-1)
                offset += p.numel()
            dist.broadcast(flat, src=src)
            offset = 0
            for p in share:
                p.copy_(flat[offset:offset + p.numel()].view_as(p))
                offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
