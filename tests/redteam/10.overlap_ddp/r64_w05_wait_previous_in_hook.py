# expect: fail waits on the previous bucket's handle inside the hook before launching the next, so backward stalls on communication
# hint: wait.{0,40}(hook|backward|inside|during)|(hook|backward|inside|during).{0,40}wait|block|stall|overlap|do not wait
# Wrong: the prompt says not to wait in the hook; waiting for the bucket before (to keep them "in
# order", one at a time) stops backward until that all-reduce is done. The values are right.
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
        self.ready = [0] * len(self.buckets)
        self.pending = []
        self.done = []
        for p in self.bucket_of:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.ready[i] += 1
        bucket = self.buckets[i]
        if self.ready[i] == len(bucket):
            if self.pending:  # one bucket in flight at a time, as DDP keeps them in order
                handle, flat, prev = self.pending.pop()
                handle.wait()
                self.done.append((flat, prev))
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            self.done.append((flat, bucket))
        for flat, bucket in self.done:
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending, self.done = [], []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
