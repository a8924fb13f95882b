# expect: fail flattens every bucket into the same preallocated scratch buffer (sized for the largest bucket) to save memory: the next bucket's torch.cat overwrites a buffer whose all-reduce is still in flight, and every bucket copies back from the one buffer; one bucket hides it
# hint: (shar|reus|same|single|one)\w*.{0,40}(buffer|scratch|storage)|overwr|clobber|in flight|race|largest bucket
# name: OverlappedDDP
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
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.longest = max(sum(q.numel() for q in b) for b in self.buckets)
        self.scratch = {}  # dtype -> one buffer, allocated once, reused by every bucket
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
            bucket = self.buckets[i]
            if p.dtype not in self.scratch:
                self.scratch[p.dtype] = torch.empty(self.longest, dtype=p.dtype)
            flat = self.scratch[p.dtype][: sum(q.numel() for q in bucket)]
            torch.cat([q.grad.reshape(-1) for q in bucket], out=flat)
            flat /= dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
