# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """Each owner's parameters live in one flat bucket (their .data are views of it), as
    ZeroRedundancyOptimizer(parameters_as_bucket_view=True) does: the owner's step updates its
    bucket in place, one broadcast per bucket updates every rank's copy, nothing to copy back."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        groups = {}  # (owner, dtype, device) -> params, in params order
        for p in self.params:
            r = min(range(self.world), key=loads.__getitem__)
            loads[r] += p.numel() * p.element_size()
            groups.setdefault((r, p.dtype, p.device), []).append(p)
        self.buckets = []
        with torch.no_grad():
            for (r, dtype, device), ps in groups.items():
                bucket = torch.empty(sum(p.numel() for p in ps), dtype=dtype, device=device)
                offset = 0
                for p in ps:
                    view = bucket[offset:offset + p.numel()].view_as(p)
                    view.copy_(p)
                    p.data = view  # the parameter now lives in the bucket
                    offset += p.numel()
                self.buckets.append((r, bucket))
        mine = [p for (r, _, _), ps in groups.items() if r == self.rank for p in ps]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()  # in place: the own bucket holds the new values
        for r, bucket in self.buckets:
            dist.broadcast(bucket, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
