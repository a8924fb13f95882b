# expect: fail copies the averages back into p.grad in a callback chained with get_future().then(...) and finish waits only on the handle: the handle completes before (not after) its callbacks have run, so finish can return and the optimizer step read p.grad while the callback is still copying
# hint: then|callback|future|race|copy|wait|chain|before.*copied
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = []
        bucket, size = [], 0
        for p in reversed(params):  # backward's order: last layer first
            bucket.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:  # reached the cap: close it
                self.buckets.append(bucket)
                bucket, size = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.bucket_of = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.pending = []  # (bucket index, flat, handle)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[id(p)]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):  # the bucket's last gradient
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            # copy back as soon as the all-reduce is done, off the critical path
            handle.get_future().then(lambda fut, i=i: self._copy_back(i, fut.value()[0]))
            self.pending.append(handle)

    def _copy_back(self, i, flat):
        offset = 0
        for q in self.buckets[i]:
            n = q.numel()
            q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
            offset += n

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle in self.pending:
            handle.wait()  # the callbacks copied the averages into p.grad
        self.pending = []
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
