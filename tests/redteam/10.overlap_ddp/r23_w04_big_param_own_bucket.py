# expect: fail a parameter of bucket_bytes or more gets a bucket of its own while the bucket being filled stays open and takes the parameters after it: buckets are no longer consecutive runs of the reversed parameters, which is not the rule the prompt gives (DDP closes the current bucket with the big parameter in it)
# hint: rule|cap|own bucket|big|large|consecutive|contiguous|close|order
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        bucket, size = [], 0
        for p in reversed(params):  # backward's order: last layer first
            nbytes = p.numel() * p.element_size()
            if nbytes >= bucket_bytes:  # too big to share: a bucket of its own
                self.buckets.append([p])
                continue
            bucket.append(p)
            size += nbytes
            if size >= bucket_bytes:  # reached the cap: close it
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []  # (bucket index, flat, handle)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):  # the bucket's last gradient
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.pending = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
