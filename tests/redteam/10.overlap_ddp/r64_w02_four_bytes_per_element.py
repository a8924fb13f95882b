# expect: fail counts a parameter's bytes as numel * 4, so float64 parameters fill buckets at half their real size
# hint: element_size|itemsize|nbytes|dtype|float64|double|8 bytes|4 bytes|bytes (per|an|of an|each) element
# Wrong: bucket_bytes is in bytes of the parameters' own dtype; 4 bytes an element written in
# plans the wrong buckets for the float64 model (the prompt names this).
import torch
import torch.distributed as dist

BYTES_PER_FLOAT = 4


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * BYTES_PER_FLOAT
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
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
