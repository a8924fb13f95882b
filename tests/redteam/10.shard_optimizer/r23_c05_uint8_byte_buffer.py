# expect: pass one flat buffer per owner made of raw bytes (each parameter viewed as torch.uint8), so parameters of mixed dtypes travel bit for bit in one broadcast per rank
import torch
import torch.distributed as dist


def _bytes(t):
    return t.detach().reshape(-1).view(torch.uint8)  # same memory, read as bytes


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        n = dist.get_world_size()
        self.shares = [[] for _ in range(n)]
        load = [0] * n
        for p in self.params:
            r = min(range(n), key=lambda k: (load[k], k))
            self.shares[r].append(p)
            load[r] += p.numel() * p.element_size()
        own = self.shares[dist.get_rank()]
        self.optim = optimizer_cls(own, **kwargs) if own else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for src, share in enumerate(self.shares):
            if share:
                buf = torch.cat([_bytes(p) for p in share])
                dist.broadcast(buf, src=src)
                sizes = [p.numel() * p.element_size() for p in share]
                for p, chunk in zip(share, buf.split(sizes)):
                    _bytes(p).copy_(chunk)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
