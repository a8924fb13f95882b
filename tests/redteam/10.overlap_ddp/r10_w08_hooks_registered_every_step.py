# expect: fail hooks registered again in every finish() (setup re-run to reset the state), so each step adds one more hook per parameter
# hint: hooks were registered again.*once, in __init__
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.params = list(model.parameters())
        self.bucket_bytes = bucket_bytes
        self._setup()

    def _setup(self):
        """Build the buckets, reset the counters and arm the hooks for the next backward."""
        self.buckets = []
        current, size = [], 0
        for p in reversed(self.params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= self.bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.pending.append((i, flat, handle))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for p in self.buckets[i]:
                n = p.numel()
                p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
                offset += n
        self._setup()  # fresh state for the next step


answer = OverlappedDDP
