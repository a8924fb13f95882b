# expect: fail when a bucket is complete, launches one async all-reduce per parameter of it instead of one of the flattened bucket
# hint: flat|bucket|one all.?reduce|cat|per param|more|collective
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
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            for q in self.buckets[i]:
                q.grad /= dist.get_world_size()
                self.pending.append(dist.all_reduce(q.grad, async_op=True))

    def finish(self):
        for handle in self.pending:
            handle.wait()
        self.pending = []
        self.counts = [0] * len(self.buckets)
