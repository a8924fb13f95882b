# expect: pass
# hint:
import torch
import torch.distributed as dist


class answer:
    """named_parameters reversed, countdown per bucket, waits via get_future().wait()."""

    def __init__(self, model, bucket_bytes):
        named = list(model.named_parameters())
        self.buckets = []   # list of lists of (name, param)
        bucket, filled = [], 0
        for name, p in reversed(named):
            bucket.append((name, p))
            filled += p.numel() * p.element_size()
            if filled >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, filled = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.remaining = [len(b) for b in self.buckets]
        self.inflight = {}  # bucket index -> (handle, flat)
        for b_idx, b in enumerate(self.buckets):
            for _, p in b:
                p.register_post_accumulate_grad_hook(lambda param, b_idx=b_idx: self._arrive(b_idx))

    def _arrive(self, b_idx):
        self.remaining[b_idx] -= 1
        if self.remaining[b_idx] == 0:
            grads = [p.grad.reshape(-1) for _, p in self.buckets[b_idx]]
            flat = torch.cat(grads).div(dist.get_world_size())
            handle = dist.all_reduce(flat, async_op=True)
            self.inflight[b_idx] = (handle, flat)

    def finish(self):
        for b_idx in sorted(self.inflight):
            handle, flat = self.inflight[b_idx]
            handle.get_future().wait()
            pos = 0
            for _, p in self.buckets[b_idx]:
                k = p.numel()
                p.grad.copy_(flat[pos:pos + k].reshape_as(p.grad))
                pos += k
        self.inflight = {}
        self.remaining = [len(b) for b in self.buckets]
