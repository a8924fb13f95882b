# expect: pass
# hint:
import torch
import torch.distributed as dist
import functools


class answer:
    def __init__(self, model, bucket_bytes):
        ps = list(model.parameters())[::-1]
        self.buckets, cur, size = [], [], 0
        for p in ps:
            n = p.nbytes
            if cur and size + n > bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
            cur.append(p)
            size += n
        if cur:
            self.buckets.append(cur)
        self.left = [len(b) for b in self.buckets]
        self.work = []
        for i, b in enumerate(self.buckets):
            for p in b:
                p.register_post_accumulate_grad_hook(functools.partial(self._ready, i))

    def _ready(self, i, p):
        self.left[i] -= 1
        if self.left[i] == 0:
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]]).div_(dist.get_world_size())
            self.work.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for i, flat, w in self.work:
            w.wait()
            off = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[off:off + q.numel()].view_as(q))
                off += q.numel()
        self.work = []
        self.left = [len(b) for b in self.buckets]
