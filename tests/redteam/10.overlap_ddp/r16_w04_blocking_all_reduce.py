# expect: fail the hook calls a blocking dist.all_reduce (no async_op=True): backward stops until each bucket is sent
# hint: async_op|async|block|synchronous|handle|wait|overlap
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
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
        self.done = []  # (flat, bucket)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            bucket = self.buckets[i]
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat /= dist.get_world_size()
            dist.all_reduce(flat)  # sent as soon as the bucket is full
            self.done.append((flat, bucket))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for flat, bucket in self.done:
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.done = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
