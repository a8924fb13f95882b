# expect: fail closes a bucket only when it exceeds the cap (>) instead of on reaching it (>=)
# hint: (>=|reach|exact|exceed|cap|bucket_bytes|close|buckets? hold|268)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets, cur, nbytes = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            nbytes += p.numel() * p.element_size()
            if nbytes > bucket_bytes:
                self.buckets.append(cur)
                cur, nbytes = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.pending.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for i, flat, handle in self.pending:
            handle.wait()
            off = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[off:off + q.numel()].view_as(q))
                off += q.numel()
        self.pending = []
        self.counts = [0] * len(self.buckets)
