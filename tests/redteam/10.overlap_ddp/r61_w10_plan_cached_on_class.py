# expect: fail caches the bucket plan on the class, keyed by the cap and the parameters' shapes but not their dtype, so a later instance over the same architecture in float64 reuses the float32 plan
# hint: cache|class|instance|carr(y|ies) over|plan|dtype|element_size|float64|stale
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    _plans = {}  # the plan depends on the cap and the shapes only: compute it once per model

    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        key = (bucket_bytes, tuple(tuple(p.shape) for p in params))
        if key not in OverlappedDDP._plans:
            plan, current, size = [], [], 0
            for k in reversed(range(len(params))):
                current.append(k)
                size += params[k].numel() * params[k].element_size()
                if size >= bucket_bytes:
                    plan.append(current)
                    current, size = [], 0
            if current:
                plan.append(current)
            OverlappedDDP._plans[key] = plan
        self.buckets = [[params[k] for k in ks] for ks in OverlappedDDP._plans[key]]
        self.bucket_of = {}
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                self.bucket_of[p] = i
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            handle = dist.all_reduce(flat, async_op=True)
            self.handles.append((i, flat, handle))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.handles:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset:offset + n].view_as(q.grad))
                offset += n
        self.handles = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
