# expect: fail cuts each averaged flat back with torch.chunk(flat, len(bucket)), equal pieces, instead of pieces of each parameter's numel: right only when a bucket's parameters all have the same size (a bucket per parameter, bucket_bytes=1), wrong or a shape error otherwise
# hint: chunk|split|size|numel|equal|piece|slice|offset
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
        self.pending = []  # (bucket index, flat, handle)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):  # the bucket's last gradient
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.pending:
            handle.wait()
            pieces = torch.chunk(flat, len(self.buckets[i]))  # one piece per parameter
            for q, piece in zip(self.buckets[i], pieces):
                q.grad.copy_(piece.reshape(q.grad.shape))
        self.pending = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
