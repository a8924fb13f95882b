# expect: pass
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """One preallocated flat buffer per bucket, filled with torch.cat(out=...) each step."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        cur, nbytes = [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            nbytes += p.nelement() * p.element_size()
            if nbytes >= bucket_bytes:
                self.buckets.append(cur)
                cur, nbytes = [], 0
        if len(cur) > 0:
            self.buckets.append(cur)
        self.buffers = [
            torch.empty(sum(p.numel() for p in b), dtype=b[0].dtype, device=b[0].device)
            for b in self.buckets
        ]
        self.where = {}
        for i, b in enumerate(self.buckets):
            for p in b:
                self.where[id(p)] = i
        self.count = [0 for _ in self.buckets]
        self.works = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self.grad_ready)

    def grad_ready(self, p):
        i = self.where[id(p)]
        self.count[i] += 1
        if self.count[i] != len(self.buckets[i]):
            return
        buf = self.buffers[i]
        torch.cat([q.grad.reshape(-1) for q in self.buckets[i]], out=buf)
        buf.div_(dist.get_world_size())
        work = dist.all_reduce(buf, async_op=True)
        self.works.append((i, work))

    def finish(self):
        for i, work in self.works:
            work.wait()
            off = 0
            buf = self.buffers[i]
            for p in self.buckets[i]:
                n = p.numel()
                p.grad.copy_(buf.narrow(0, off, n).view_as(p.grad))
                off += n
        self.works.clear()
        self.count = [0 for _ in self.buckets]


answer = OverlappedDDP
