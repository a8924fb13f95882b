# expect: fail skips the flattening: one async all-reduce per gradient of a full bucket instead of one per bucket
# hint: flat|flatten|torch\.cat|one (all.?reduce )?per (bucket|gradient|parameter)|per parameter|fixed cost|nothing but the buckets
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
        self.bucket_of = {p: i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            # the gradients reduced where they are: no copy into a flat tensor and back
            for q in self.buckets[i]:
                q.grad.div_(dist.get_world_size())
                self.handles.append(dist.all_reduce(q.grad, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle in self.handles:
            handle.wait()
        self.handles = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
