# expect: fail sets torch.set_default_dtype(torch.float64) in __init__ so the flat buffers keep the precision, and never puts the process-wide default back
# hint: default.?dtype|set_default_dtype|process|setting|global|restor|changed|put back
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        torch.set_default_dtype(torch.float64)  # flat buffers in double: nothing is rounded
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
            flat = torch.zeros(sum(p.numel() for p in share))
            flat.copy_(torch.cat([p.reshape(-1).to(flat.dtype) for p in share]))
            dist.broadcast(flat, src=src)
            for p, part in zip(share, flat.split([p.numel() for p in share])):
                p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
