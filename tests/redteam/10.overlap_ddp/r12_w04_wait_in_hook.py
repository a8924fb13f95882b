# expect: fail each bucket's all-reduce is waited on inside the hook, right after its launch, so backward stops until it is done (no overlap); finish() only copies back
# hint: (wait\w*.{0,30}(in|inside|within|from) (the |a |its |your )?hook|hook.{0,30}wait|block\w* backward|backward (stops|blocks|stalls)|synchron|do not wait|without waiting)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets, bucket, size = [], [], 0
        for p in reversed(list(model.parameters())):
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.index = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.done = []  # (flat, bucket index), already reduced
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            handle.wait()  # make sure the sums are in before backward goes on
            self.done.append((flat, i))

    @torch.no_grad()
    def finish(self):
        for flat, i in self.done:
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.done = []
