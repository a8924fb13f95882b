# expect: fail keeps one flat buffer per bucket made with torch.zeros(n), float32, so float64 gradients are rounded to float32 before the all-reduce
# hint: dtype|float32|float64|double|round|precision|torch\.zeros
# Wrong: the gradients must come back as the average in their own dtype; a float32 buffer made in
# __init__ (torch.zeros(n) with no dtype) rounds a float64 model's gradients, which copy_ then
# casts back: right for float32 models only.
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        # a buffer per bucket, kept for the next step: no new tensor at every step
        self.flats = [torch.zeros(sum(q.numel() for q in bucket)) for bucket in self.buckets]
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        bucket = self.buckets[i]
        if self.ready[i] == len(bucket):
            flat = self.flats[i]
            offset = 0
            for q in bucket:
                flat[offset : offset + q.numel()].copy_(q.grad.reshape(-1))
                offset += q.numel()
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
