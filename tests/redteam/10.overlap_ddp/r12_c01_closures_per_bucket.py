# expect: pass
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Buckets in reverse parameter order; a closure per parameter that knows its bucket."""

    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self.buckets = []
        current, size = [], 0
        for p in reversed(params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:  # reached the cap: close
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.remaining = [len(b) for b in self.buckets]
        self.pending = []  # (handle, flat, bucket index)
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._make_hook(i))

    def _make_hook(self, i):
        def hook(p):
            self._hook(p, i)

        return hook

    @torch.no_grad()
    def _hook(self, p, i):
        self.remaining[i] -= 1
        if self.remaining[i] == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            handle = dist.all_reduce(flat, async_op=True)
            self.pending.append((handle, flat, i))

    @torch.no_grad()
    def finish(self):
        for handle, flat, i in self.pending:
            handle.wait()
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.pending = []
        self.remaining = [len(b) for b in self.buckets]
