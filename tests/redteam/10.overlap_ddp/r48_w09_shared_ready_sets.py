# expect: fail per-bucket ready sets made with [set()] * n, one set shared by every bucket, so buckets launch at the wrong time
# hint: bucket|launch|last gradient|ready|count
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        current, size = [], 0
        for p in reversed(params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [set()] * len(self.buckets)  # which of each bucket's gradients have arrived
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i].add(p)
        if len(self.ready[i]) == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        for s in self.ready:
            s.clear()


answer = OverlappedDDP
