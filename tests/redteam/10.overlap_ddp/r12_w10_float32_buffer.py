# expect: fail each bucket's flat buffer is preallocated with torch.zeros(numel), which is float32 whatever the model's dtype, so a float64 model's gradients are sent and averaged in float32 (rounded) and copied back
# hint: (dtype|float32|float64|double|precision|round|torch\.zeros\(|default (float|type)|same type|cast)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """One preallocated flat buffer per bucket, as DDP keeps; grads are copied in, then sent."""

    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, size = [], [], 0
        for p in reversed(list(model.parameters())):
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.index = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.buffers = [torch.zeros(sum(p.numel() for p in b)) for b in self.buckets]
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = self.buffers[i]
            torch.cat([q.grad.reshape(-1) for q in self.buckets[i]], out=flat)
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), i))

    @torch.no_grad()
    def finish(self):
        for handle, i in self.handles:
            handle.wait()
            bucket, flat = self.buckets[i], self.buffers[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.handles = []
