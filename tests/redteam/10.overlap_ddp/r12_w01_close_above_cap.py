# expect: fail a bucket closes only once it holds more than bucket_bytes (`>`), so a bucket that reaches the cap exactly stays open and takes the next parameter too
# hint: (>=|reach(es|ed|ing)?\b.{0,30}(cap|bucket_bytes|size|limit)|exactly|or more|at least|more than|above the cap|(close|closing|closed)\b.{0,30}(bucket|cap)|bucket.{0,30}(clos|boundar|split))
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets = []
        bucket, size = [], 0
        for p in reversed(list(model.parameters())):
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size > bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        for handle, flat, i in self.handles:
            handle.wait()
            offset = 0
            for p in self.buckets[i]:
                p.grad.copy_(flat[offset:offset + p.numel()].view_as(p))
                offset += p.numel()
        self.counts = [0] * len(self.buckets)
        self.handles = []
