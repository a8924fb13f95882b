# expect: fail keeps every step's flat buffers in a list never cleared (the handles are reset): memory grows each step
# hint: memory|kept|clear|flat|reset|grow
import torch
import torch.distributed as dist


class answer:
    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self.buckets = []
        cur, size = [], 0
        for p in reversed(params):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        self.history = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.pending.append((handle, flat, i))
            self.history.append(flat)

    def finish(self):
        for handle, flat, i in self.pending:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.counts = [0] * len(self.buckets)
