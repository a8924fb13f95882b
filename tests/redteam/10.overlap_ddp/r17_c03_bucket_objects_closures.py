# expect: pass
# hint:
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.arrived = 0
        self.flat = None
        self.handle = None


class OverlappedDDP:
    """A small object per bucket; each parameter's hook is a closure over its bucket."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        group, filled = [], 0
        for p in reversed([*model.parameters()]):
            group.append(p)
            filled += p.nelement() * p.element_size()
            if filled >= bucket_bytes:
                self.buckets.append(_Bucket(group))
                group, filled = [], 0
        if group:
            self.buckets.append(_Bucket(group))
        self.in_flight = []
        for bucket in self.buckets:
            for p in bucket.params:
                p.register_post_accumulate_grad_hook(self._make_hook(bucket))

    def _make_hook(self, bucket):
        def hook(p):
            bucket.arrived += 1
            if bucket.arrived == len(bucket.params):
                bucket.flat = torch.cat([q.grad.reshape(-1) for q in bucket.params])
                bucket.flat.div_(dist.get_world_size())
                bucket.handle = dist.all_reduce(bucket.flat, async_op=True)
                self.in_flight.append(bucket)

        return hook

    def finish(self):
        for bucket in self.in_flight:
            bucket.handle.wait()
            start = 0
            for q in bucket.params:
                q.grad.copy_(bucket.flat[start : start + q.numel()].reshape(q.grad.shape))
                start += q.numel()
        for bucket in self.buckets:
            bucket.arrived, bucket.flat, bucket.handle = 0, None, None
        self.in_flight = []


answer = OverlappedDDP
