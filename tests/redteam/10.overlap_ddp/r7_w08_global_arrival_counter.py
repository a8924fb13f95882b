# expect: fail one global arrival counter decides which bucket is complete (bucket k after the first len(b0)+...+len(bk) gradients), assuming gradients arrive in reverse order of model.parameters()
# hint: last gradient|launch|before|order|arriv|none|error|exception|rais
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets = []
        cur, size = [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.done_after = {}
        total = 0
        for i, b in enumerate(self.buckets):
            total += len(b)
            self.done_after[total] = i
        self.arrived = 0
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        self.arrived += 1
        i = self.done_after.get(self.arrived)
        if i is not None:
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
        self.arrived = 0


answer = OverlappedDDP
