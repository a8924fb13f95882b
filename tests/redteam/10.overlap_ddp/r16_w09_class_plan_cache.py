# expect: fail bucket plan cached at class level by (number of parameters, bucket_bytes): stale for another model with other sizes or dtype
# hint: cache|class attribute|_plans|stale|another model|dtype|element_size|between instances|shared
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    _plans = {}  # (number of parameters, bucket_bytes) -> bucket sizes, computed once

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())[::-1]
        key = (len(params), bucket_bytes)
        if key not in self._plans:
            counts, n, size = [], 0, 0
            for p in params:
                n += 1
                size += p.numel() * p.element_size()
                if size >= bucket_bytes:
                    counts.append(n)
                    n, size = 0, 0
            if n:
                counts.append(n)
            self._plans[key] = counts
        self.buckets, start = [], 0
        for n in self._plans[key]:
            self.buckets.append(params[start : start + n])
            start += n
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            bucket = self.buckets[i]
            flat = torch.cat([q.grad.reshape(-1) for q in bucket]) / dist.get_world_size()
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
