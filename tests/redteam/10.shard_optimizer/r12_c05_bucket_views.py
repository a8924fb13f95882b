# expect: pass
# hint:
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1 with each owner's parameters living as views of one flat bucket, broadcast in place."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self._params = list(params)
        me, n = dist.get_rank(), dist.get_world_size()
        owned_bytes = [0] * n
        shares = [[] for _ in range(n)]
        for p in self._params:
            r = 0
            for k in range(1, n):
                if owned_bytes[k] < owned_bytes[r]:
                    r = k
            shares[r].append(p)
            owned_bytes[r] += p.numel() * p.element_size()
        # like parameters_as_bucket_view=True: the parameters become views of a flat buffer
        self._buckets = []
        with torch.no_grad():
            for r, share in enumerate(shares):
                if not share:
                    continue
                bucket = torch.empty(
                    sum(p.numel() for p in share), dtype=share[0].dtype, device=share[0].device
                )
                offset = 0
                for p in share:
                    view = bucket[offset : offset + p.numel()].view_as(p)
                    view.copy_(p.data)
                    p.data = view
                    offset += p.numel()
                self._buckets.append((r, bucket))
        self._opt = optimizer_cls(shares[me], **kwargs) if shares[me] else None

    @torch.no_grad()
    def step(self):
        if self._opt is not None:
            self._opt.step()
        for r, bucket in self._buckets:  # ascending owner, on every rank
            dist.broadcast(bucket, src=r)

    def zero_grad(self):
        for p in self._params:
            p.grad = None
