# expect: fail buckets are built lazily during the first backward, filled in the order the gradients arrive instead of reverse order of model.parameters()
# hint: order|arriv|revers
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        self.params = list(model.parameters())
        self.buckets = []          # filled during the first backward
        self.building = True
        self.cur, self.size, self.seen = [], 0, 0
        self.bucket_of = {}
        self.counts = []
        self.pending = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _launch(self, i):
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
        flat /= dist.get_world_size()
        self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def _close(self):
        i = len(self.buckets)
        self.buckets.append(self.cur)
        for q in self.cur:
            self.bucket_of[id(q)] = i
        self.counts.append(len(self.cur))
        self.cur, self.size = [], 0
        self._launch(i)   # every gradient in it has arrived already

    def _hook(self, p):
        if self.building:
            self.seen += 1
            self.cur.append(p)
            self.size += p.numel() * p.element_size()
            if self.size >= self.bucket_bytes:
                self._close()
            elif self.seen == len(self.params) and self.cur:
                self._close()
            return
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            self._launch(i)

    def finish(self):
        for i, flat, h in self.pending:
            h.wait()
            off = 0
            for p in self.buckets[i]:
                p.grad.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()
        self.pending = []
        self.building = False
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
