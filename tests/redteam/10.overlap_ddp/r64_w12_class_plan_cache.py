# expect: fail caches the bucket plan on the class, keyed by bucket_bytes and the parameters' shapes, so a later instance over the same model in another dtype reuses the first instance's buckets
# hint: instance|class|cach|carr(y|ies|ied) over|own (buckets|plan)|first (instance|OverlappedDDP)|previous|shared|plan.{0,40}(again|each|reus)|reus
# Wrong: the prompt says each instance plans its own buckets and nothing kept by the class carries
# over; the plan depends on the bytes, so a float32 instance's plan is wrong for the same shapes
# in float64.
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    _plans = {}  # (bucket_bytes, shapes) -> buckets as parameter indices: plan each model once

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        key = (bucket_bytes, tuple(tuple(p.shape) for p in params))
        if key not in OverlappedDDP._plans:
            plan, current, size = [], [], 0
            for i in reversed(range(len(params))):
                current.append(i)
                size += params[i].numel() * params[i].element_size()
                if size >= bucket_bytes:
                    plan.append(current)
                    current, size = [], 0
            if current:
                plan.append(current)
            OverlappedDDP._plans[key] = plan
        self.buckets = [[params[i] for i in b] for b in OverlappedDDP._plans[key]]
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        bucket = self.buckets[i]
        if self.ready[i] == len(bucket):
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
