# expect: fail after the first step the buckets are rebuilt in the order the hooks fired (like real DDP's bucket rebuild), not in reverse order of model.parameters()
# hint: order|arriv|revers
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        self.params = list(model.parameters())
        self._build(list(reversed(self.params)))
        self.arrival = []
        self.rebuilt = False
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _build(self, order):
        self.buckets = []
        cur, size = [], 0
        for p in order:
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= self.bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []

    def _hook(self, p):
        if not self.rebuilt:
            self.arrival.append(p)   # remember the real order gradients come in
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for i, flat, h in self.pending:
            h.wait()
            off = 0
            for p in self.buckets[i]:
                p.grad.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)
        if not self.rebuilt:
            # like torch DDP: rebuild buckets in the order gradients actually arrived
            self._build(self.arrival)
            self.rebuilt = True


answer = OverlappedDDP
