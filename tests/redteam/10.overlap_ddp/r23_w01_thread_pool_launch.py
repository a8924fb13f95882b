# expect: fail the hook hands the flatten and the all-reduce to a thread pool, so the launches happen on several worker threads in whatever order they get scheduled: ranks can launch the buckets in different orders and sum mismatched buckets (or hang), and no launch happens inside the hook
# hint: thread|pool|executor|order|same order|schedul|launch.*hook|inside the hook|mismatch
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist


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
        self.counts = [0] * len(self.buckets)
        self.pending = []  # (bucket index, future of (flat, handle))
        self.pool = ThreadPoolExecutor(max_workers=4)  # keeps the cat off backward's thread
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):  # the bucket's last gradient
            self.pending.append((i, self.pool.submit(self._launch, i)))

    def _launch(self, i):
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
        flat /= dist.get_world_size()
        return flat, dist.all_reduce(flat, async_op=True)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, launched in self.pending:
            flat, handle = launched.result()
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.pending = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
