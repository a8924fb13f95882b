# expect: fail closes a bucket when the running total over ALL buckets reaches k * bucket_bytes (k-th bucket), not when this bucket alone reaches the cap: buckets after an overshoot close early
# hint: cap|reach|reset|running total|cumulative|bucket.*bytes|rule
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        current, total = [], 0
        for p in reversed(params):
            current.append(p)
            total += p.numel() * p.element_size()
            if total >= bucket_bytes * (len(self.buckets) + 1):  # the k-th bucket ends at k caps
                self.buckets.append(current)
                current = []
        if current:
            self.buckets.append(current)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
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
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
