# expect: fail step 1 is a 'warm-up': the hooks only count, and finish all-reduces every bucket synchronously; only later steps launch from the hooks
# hint: hook|launch|backward|first step|step 1|returned|before
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
        self.step_no = 0
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.step_no == 0:
            return
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.pending.append((handle, flat, i))

    def finish(self):
        if self.step_no == 0:
            for i, b in enumerate(self.buckets):
                flat = torch.cat([q.grad.reshape(-1) for q in b]) / dist.get_world_size()
                self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))
        self.step_no += 1
        for handle, flat, i in self.pending:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.pending = []
        self.counts = [0] * len(self.buckets)
