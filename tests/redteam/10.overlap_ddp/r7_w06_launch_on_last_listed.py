# expect: fail a bucket is launched when the hook of its last-listed parameter fires (assuming gradients arrive in reverse order of model.parameters()) instead of counting; on the reordered model it is sent before its last gradient arrives
# hint: last gradient|launch|before|order|arriv
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
        # backward goes in reverse order, so a bucket is complete when its last entry is
        self.closer = {id(b[-1]): i for i, b in enumerate(self.buckets)}
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.closer.get(id(p))
        if i is None:
            return
        parts = []
        for q in self.buckets[i]:
            g = q.grad if q.grad is not None else torch.zeros_like(q)
            parts.append(g.reshape(-1))
        flat = torch.cat(parts)
        flat /= dist.get_world_size()
        self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for i, flat, h in self.pending:
            h.wait()
            off = 0
            for p in self.buckets[i]:
                if p.grad is None:
                    p.grad = torch.zeros_like(p)
                p.grad.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()
        self.pending = []


answer = OverlappedDDP
