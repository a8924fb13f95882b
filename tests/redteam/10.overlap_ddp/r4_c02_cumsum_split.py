# expect: pass
# hint: 
import itertools

import torch
import torch.distributed as dist


class answer:
    """Buckets from running byte totals; copy back with flat.split."""

    def __init__(self, model, bucket_bytes):
        rev = list(model.parameters())[::-1]
        sizes = [p.numel() * p.element_size() for p in rev]
        self.buckets, start, total = [], 0, 0
        for j, nbytes in enumerate(sizes):
            total += nbytes
            if total >= bucket_bytes or j == len(rev) - 1:
                self.buckets.append(rev[start:j + 1])
                start, total = j + 1, 0
        self.where = {id(p): b for b, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0 for _ in self.buckets]
        self.works = []
        for p in rev:
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        b = self.where[id(p)]
        self.ready[b] += 1
        bucket = self.buckets[b]
        if self.ready[b] < len(bucket):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in bucket]).div_(dist.get_world_size())
        self.works.append((b, flat, dist.all_reduce(flat, op=dist.ReduceOp.SUM, async_op=True)))

    @torch.no_grad()
    def finish(self):
        works, self.works = self.works, []
        for b, flat, work in works:
            work.wait()
            bucket = self.buckets[b]
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.ready = list(itertools.repeat(0, len(self.buckets)))
