# expect: pass
# hint:
import functools
import torch
import torch.distributed as dist


class answer:
    """Closes a bucket just before a parameter would take it past the cap."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        cur, size = [], 0
        for p in params[::-1]:
            nb = p.numel() * p.element_size()
            if cur and size + nb > bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
            cur.append(p)
            size += nb
        if cur:
            self.buckets.append(cur)
        self.ready = [0] * len(self.buckets)
        self.handles = []
        self.flats = []
        self.launched = []
        for idx, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(functools.partial(self._on_ready, idx))

    def _on_ready(self, idx, p):
        self.ready[idx] += 1
        if self.ready[idx] < len(self.buckets[idx]):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[idx]])
        flat = flat / dist.get_world_size()
        self.handles.append(dist.all_reduce(flat, async_op=True))
        self.flats.append(flat)
        self.launched.append(idx)

    def finish(self):
        for handle, flat, idx in zip(self.handles, self.flats, self.launched):
            handle.wait()
            params = self.buckets[idx]
            chunks = torch.split(flat, [p.numel() for p in params])
            for p, c in zip(params, chunks):
                p.grad.copy_(c.reshape(p.shape))
        self.handles, self.flats, self.launched = [], [], []
        self.ready = [0] * len(self.buckets)
