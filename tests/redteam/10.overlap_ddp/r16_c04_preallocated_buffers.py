# expect: pass one preallocated flat buffer per bucket filled with torch.cat(out=), id-keyed countdowns
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed([*model.parameters()]):
            current.append(p)
            size += p.nbytes
            if size >= bucket_bytes:
                self.buckets.append(tuple(current))
                current, size = [], 0
        if current:
            self.buckets.append(tuple(current))
        self.home = {id(p): b for b, bucket in enumerate(self.buckets) for p in bucket}
        self.buffers = [
            torch.empty(sum(p.numel() for p in bucket), dtype=bucket[0].dtype)
            for bucket in self.buckets
        ]
        self.left = [len(bucket) for bucket in self.buckets]
        self.works = {}
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.home[id(p)]
        self.left[b] -= 1
        if self.left[b] == 0:
            buf = self.buffers[b]
            torch.cat([q.grad.reshape(-1) for q in self.buckets[b]], out=buf)
            buf.div_(dist.get_world_size())
            self.works[b] = dist.all_reduce(buf, async_op=True)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, work in self.works.items():
            work.wait()
            start = 0
            for q in self.buckets[b]:
                q.grad.copy_(self.buffers[b][start : start + q.numel()].view_as(q))
                start += q.numel()
        self.works.clear()
        self.left = [len(bucket) for bucket in self.buckets]


answer = OverlappedDDP
