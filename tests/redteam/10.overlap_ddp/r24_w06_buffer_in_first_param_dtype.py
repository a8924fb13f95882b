# expect: fail each bucket's reused buffer takes the dtype of the bucket's first parameter, so in a bucket of mixed dtypes (a bfloat16 or float16 layer beside float32 ones) the other gradients are rounded to that dtype on the wire
# hint: dtype|round|precision|mixed|bfloat16|float16|half
# open: every case's model has one dtype (float32, or float64 on three ranks): only a bucket of mixed dtypes tells it apart
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, cur, size = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        # one buffer per bucket, allocated once, in the parameters' own dtype (float64 stays float64)
        self.flats = [
            torch.empty(sum(q.numel() for q in b), dtype=b[0].dtype) for b in self.buckets
        ]
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = self.flats[i]
            torch.cat([q.grad.reshape(-1) for q in self.buckets[i]], out=flat)
            flat /= dist.get_world_size()
            self.launched.append((i, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, handle in self.launched:
            handle.wait()
            flat = self.flats[i]
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
