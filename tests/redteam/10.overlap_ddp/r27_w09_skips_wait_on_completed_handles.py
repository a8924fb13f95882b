# expect: fail finish() calls handle.wait() only on handles that are not is_completed() yet: an all-reduce that finished during backward is never waited on (its errors are never raised, and under nccl the stream never orders after it), against "wait for every bucket"
# hint: is_completed|complet\w*.{0,40}(skip|without|not wait)|(not|never|without|skip)\w*.{0,40}wait|wait.{0,40}(never|not|only)\b|every (handle|bucket)
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
            if not handle.is_completed():  # a finished all-reduce needs no wait
                handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
