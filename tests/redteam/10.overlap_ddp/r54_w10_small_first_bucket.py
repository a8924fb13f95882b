# expect: fail copies DDP's smaller first bucket: the first bucket closes at min(bucket_bytes, 1 MiB) (dist._DEFAULT_FIRST_BUCKET_BYTES), so any bucket_bytes above 1 MiB gives a first bucket that never reaches bucket_bytes (only shows with caps over 1 MiB)
# hint: first bucket|1 ?MiB|cap|bucket_bytes|rule|reach
# open: as r27_w05: every case's cap is under 1 MiB (the models hold a few hundred bytes), where min(bucket_bytes, 1 MiB) is bucket_bytes
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        # as DDP's rebuilt buckets: a small first bucket, so communication starts early
        caps = [min(bucket_bytes, dist._DEFAULT_FIRST_BUCKET_BYTES)]
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            cap = caps[0] if not self.buckets else bucket_bytes
            if size >= cap:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.index = {id(p): b for b, ps in enumerate(self.buckets) for p in ps}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for ps in self.buckets:
            for p in ps:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.index[id(p)]
        self.counts[b] += 1
        if self.counts[b] == len(self.buckets[b]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[b]])
            flat.div_(dist.get_world_size())
            self.pending.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, flat, handle in self.pending:
            handle.wait()
            offset = 0
            for q in self.buckets[b]:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
