# expect: fail moves the division to finish() but does it before handle.wait(): it divides a buffer the all-reduce may still be summing (a race with gloo's thread); it looks right whenever the bucket's all-reduce happens to be done already, which hides it
# hint: (divid|division|div_|scal)\w*.{0,60}before.{0,30}wait|before (the |it )?wait|race|in flight|still (running|summing|in progress)|(divid|division).{0,40}(during|while)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, self.buckets[i]))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for handle, flat, bucket in self.pending:
            flat.div_(world)  # dividing in finish() gives the same average
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
