# expect: fail buckets walk reversed(model.modules()) but each module's own parameters in forward order (weight before bias), which is not the reverse order of model.parameters()
# hint: order|revers
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        order = []
        for m in reversed(list(model.modules())):      # last layer first
            for p in m.parameters(recurse=False):      # ...but weight, then bias
                order.append(p)
        self.buckets = []
        cur, size = [], 0
        for p in order:
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in order:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
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


answer = OverlappedDDP
