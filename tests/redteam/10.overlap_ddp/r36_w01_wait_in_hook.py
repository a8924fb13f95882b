# expect: fail waits on the handle inside the hook right after launching: backward blocks, no overlap
# hint: (wait|block|overlap|inside the hook|in the hook|finish)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.buckets, cur, nbytes = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            nbytes += p.numel() * p.element_size()
            if nbytes >= bucket_bytes:
                self.buckets.append(cur)
                cur, nbytes = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.results = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]]) / dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            handle.wait()  # make sure the data is there before moving on
            self.results.append((i, flat))

    def finish(self):
        for i, flat in self.results:
            off = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[off:off + q.numel()].view_as(q))
                off += q.numel()
        self.results = []
        self.counts = [0] * len(self.buckets)
