# expect: fail one flat buffer per owner in the dtype of that owner's first parameter: in a share that mixes dtypes (bfloat16 weights, float32 norms or biases) the others travel in the wrong dtype and come back rounded
# hint: dtype|own dtype|round|precision|float32|bfloat16
# open: each model's parameters share one dtype (float32, or float64 for the last model); a share of mixed dtypes is no case
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.shares = [[] for _ in range(world)]
        for p in self.params:
            r = min(range(world), key=lambda k: loads[k])
            self.shares[r].append(p)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls(self.shares[rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        rank = dist.get_rank()
        for src, share in enumerate(self.shares):  # one broadcast per owner
            if not share:
                continue
            flat = torch.empty(sum(p.numel() for p in share), dtype=share[0].dtype, device=share[0].device)
            if rank == src:
                offset = 0
                for p in share:
                    flat[offset : offset + p.numel()].copy_(p.reshape(-1))
                    offset += p.numel()
            dist.broadcast(flat, src=src)
            if rank != src:
                offset = 0
                for p in share:
                    p.copy_(flat[offset : offset + p.numel()].view_as(p))
                    offset += p.numel()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
