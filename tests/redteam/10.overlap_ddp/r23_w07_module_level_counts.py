# expect: fail keeps the ready counts in a module-level dict keyed by bucket index, shared by every OverlappedDDP: two instances whose backwards overlap (two wrapped models in one loss) add to each other's counters and launch buckets whose grads are not ready, or never launch them
# hint: global|module|shared|instance|state|class|counter|count
# open: each case wraps one model: ready counts kept in a module-level dict by bucket index are corrupted only when two wrapped models run backward in one step
import torch
import torch.distributed as dist

_ready = {}  # bucket index -> gradients ready this step


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        bucket, size = [], 0
        for p in reversed(params):  # backward's order: last layer first
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:  # reached the cap: close it
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.pending = []  # (bucket index, flat, handle)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        _ready[i] = _ready.get(i, 0) + 1
        if _ready[i] == len(self.buckets[i]):  # the bucket's last gradient
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
        _ready.clear()


answer = OverlappedDDP
