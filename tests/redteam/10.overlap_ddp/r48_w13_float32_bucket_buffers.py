# expect: fail keeps one flat buffer per bucket made by torch.zeros(n), float32 whatever the model's dtype, so float64 gradients are rounded on the way
# hint: dtype|float64|float32|precision|round
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
        # one buffer per bucket, allocated once and reused every step (as DDP does)
        self.buffers = [torch.zeros(sum(q.numel() for q in b)) for b in self.buckets]
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = self.buffers[i]
            offset = 0
            for q in self.buckets[i]:
                flat[offset:offset + q.numel()].copy_(q.grad.reshape(-1))
                offset += q.numel()
            flat /= dist.get_world_size()
            self.pending.append((i, dist.all_reduce(flat, async_op=True)))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, handle in self.pending:
            handle.wait()
            flat = self.buffers[i]
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
