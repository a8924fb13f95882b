# expect: pass closes a bucket just before a parameter would take it past bucket_bytes: the prompt allows this rule (no bucket exceeds the cap)
# hint: 
import torch
import torch.distributed as dist


class answer:
    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self.buckets = []
        cur, size = [], 0
        for p in reversed(params):
            nbytes = p.numel() * p.element_size()
            if cur and size + nbytes > bucket_bytes:  # would overflow: close first
                self.buckets.append(cur)
                cur, size = [], 0
            cur.append(p)
            size += nbytes
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {}
        for i, b in enumerate(self.buckets):
            for p in b:
                self.bucket_of[p] = i
        self.counts = [0] * len(self.buckets)
        self.pending = []
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

    def finish(self):
        for handle, flat, i in self.pending:
            handle.wait()
            off = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[off:off + n].view_as(q.grad))
                off += n
        self.pending = []
        self.counts = [0] * len(self.buckets)
