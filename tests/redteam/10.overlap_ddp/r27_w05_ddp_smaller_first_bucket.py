# expect: fail copies DDP's smaller first bucket: the first bucket closes at min(bucket_bytes, dist._DEFAULT_FIRST_BUCKET_BYTES) = 1 MiB, so for any bucket_bytes above 1 MiB the first bucket closes early and the buckets are not the rule's; small caps hide it
# hint: first bucket|_DEFAULT_FIRST_BUCKET_BYTES|1 ?MiB|2 ?\*\* ?20|1048576|smaller (first|cap)|(cap|bucket_bytes).{0,40}(above|over|more than) 1
# open: every case's cap is under 1 MiB (the models hold a few hundred bytes), where min(bucket_bytes, 1 MiB) is bucket_bytes: only a cap above 1 MiB, with a model to fill it, tells it apart
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        # as DDP (section 10.1): a smaller first bucket, so that communication starts early
        first_cap = min(bucket_bytes, dist._DEFAULT_FIRST_BUCKET_BYTES)
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= (bucket_bytes if self.buckets else first_cap):
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, self.buckets[i]))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
