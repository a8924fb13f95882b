# expect: fail the hooks only count the ready gradients; every bucket's all-reduce is launched in finish(), after backward returned, so nothing overlaps backward
# hint: (launch\w*.{0,40}(during backward|inside backward|before backward|in(side)? (the |a |your |each )?hooks?|from (the |a |your |each )?hooks?)|hooks?.{0,30}launch|after backward (returned|ended|finished)|backward (had )?(returned|ended|finished)|launch\w*.{0,20}(in|from) `?finish)
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
        self.full = []  # bucket indices, in the order they filled
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            self.full.append(i)

    @torch.no_grad()
    def finish(self):
        handles = []
        for i in self.full:
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handles.append((dist.all_reduce(flat, async_op=True), flat, i))
        for handle, flat, i in handles:
            handle.wait()
            bucket = self.buckets[i]
            for p, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                p.grad.copy_(part.view_as(p))
        self.counts = [0] * len(self.buckets)
        self.full = []
