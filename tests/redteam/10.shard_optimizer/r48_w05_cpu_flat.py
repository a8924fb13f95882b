# expect: fail builds each owner's flat buffer with torch.empty(total, dtype=...) and no device: for CUDA parameters the broadcast gets a CPU tensor, which nccl rejects (gloo only after a round trip through host memory)
# hint: device|cpu|cuda|host|nccl
# open: gloo on the CPU broadcasts a CPU buffer; a buffer off the parameters' device shows only with CUDA tensors under nccl, which no machine of the tests has
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = {}  # (owner, dtype) -> parameters
        for p in self.params:
            r = min(range(world), key=lambda k: loads[k])
            self.shares.setdefault((r, p.dtype), []).append(p)
            loads[r] += p.numel() * p.element_size()
        mine = [p for (r, _), ps in self.shares.items() if r == rank for p in ps]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        rank = dist.get_rank()
        for (src, dtype), share in sorted(self.shares.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            flat = torch.empty(sum(p.numel() for p in share), dtype=dtype)
            if rank == src:
                torch.cat([p.reshape(-1) for p in share], out=flat)
            dist.broadcast(flat, src=src)
            if rank != src:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
