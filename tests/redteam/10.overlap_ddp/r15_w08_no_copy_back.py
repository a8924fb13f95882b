# expect: fail averaged flat tensor never copied back into p.grad (cat made a copy)
# hint: copy|copied|back into|not (the )?averag|local
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
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
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.pending = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.pending.append((i, flat, handle))

    def finish(self):
        for i, flat, handle in self.pending:
            handle.wait()
            bucket = self.buckets[i]
            for q, piece in zip(bucket, torch.split(flat, [q.numel() for q in bucket])):
                piece.view_as(q.grad)  # the bucket's slice is this parameter's averaged gradient
        self.pending = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
