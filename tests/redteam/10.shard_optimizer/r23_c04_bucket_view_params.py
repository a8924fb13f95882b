# expect: pass parameters_as_bucket_view by hand: each parameter's .data is made a view into one flat buffer per (owner, dtype) at construction, so step() broadcasts the buffers with no copy at all
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        used = [0] * world
        groups = {}
        for p in self.params:
            r = used.index(min(used))
            used[r] += p.numel() * p.element_size()
            groups.setdefault((r, p.dtype), []).append(p)
        self.buffers = []  # (owner, flat) in the same order on every rank
        with torch.no_grad():
            for (r, dtype), share in groups.items():
                flat = torch.cat([p.detach().reshape(-1) for p in share])
                offset = 0
                for p in share:
                    p.data = flat[offset:offset + p.numel()].view_as(p)  # the bucket view
                    offset += p.numel()
                self.buffers.append((r, flat))
        mine = [p for (r, _), share in groups.items() if r == rank for p in share]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()  # updates the views, so the buffers too
        for r, flat in self.buffers:
            dist.broadcast(flat, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
