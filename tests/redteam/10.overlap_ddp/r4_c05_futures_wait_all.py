# expect: pass
# hint: 
import torch
import torch.distributed as dist


class Bucket:
    def __init__(self):
        self.params, self.nbytes, self.count = [], 0, 0
        self.flat = self.handle = None


class answer:
    """Bucket objects; finish waits with torch.futures.wait_all on the handles' futures."""

    def __init__(self, model, bucket_bytes):
        self.buckets = [Bucket()]
        self.of = {}
        for p in reversed([*model.parameters()]):
            bucket = self.buckets[-1]
            bucket.params.append(p)
            bucket.nbytes += p.numel() * p.element_size()
            self.of[p] = bucket
            if bucket.nbytes >= bucket_bytes:
                self.buckets.append(Bucket())
        if not self.buckets[-1].params:
            self.buckets.pop()
        for p in self.of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        bucket = self.of[p]
        bucket.count += 1
        if bucket.count == len(bucket.params):
            with torch.no_grad():
                bucket.flat = torch.cat([q.grad.flatten() for q in bucket.params])
                bucket.flat /= dist.get_world_size()
            bucket.handle = dist.all_reduce(bucket.flat, async_op=True)

    def finish(self):
        launched = [b for b in self.buckets if b.handle is not None]
        torch.futures.wait_all([b.handle.get_future() for b in launched])
        for b in launched:
            offset = 0
            for q in b.params:
                q.grad.copy_(b.flat[offset:offset + q.numel()].view_as(q))
                offset += q.numel()
            b.flat = b.handle = None
        for b in self.buckets:
            b.count = 0
