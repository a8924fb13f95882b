# expect: pass
# hint:
import torch
import torch.distributed as dist


class answer:
    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self.buckets = []
        cur, size = [], 0
        for p in reversed(params):
            cur.append(p)
            size += p.nbytes
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
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
        works = [h for h, _, _ in self.pending]
        for w in works:
            w.wait()
        for _, flat, i in self.pending:
            torch.nn.utils.vector_to_parameters(flat, [q.grad for q in self.buckets[i]])
        self.pending = []
        self.counts = [0] * len(self.buckets)
