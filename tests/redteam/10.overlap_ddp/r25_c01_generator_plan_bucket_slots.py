# expect: pass a generator plans the buckets (reach-the-cap rule); a small __slots__ Bucket class counts down its gradients, launches itself and keeps its handle; finish() waits through handle.get_future().wait()
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


def _plan(params, cap):
    """Yield buckets of params: each closes once it holds cap bytes or more."""
    bucket, size = [], 0
    for p in params:
        bucket.append(p)
        size += p.nbytes
        if size >= cap:
            yield bucket
            bucket, size = [], 0
    if bucket:
        yield bucket


class _Bucket:
    __slots__ = ("params", "left", "flat", "handle")

    def __init__(self, params):
        self.params = params
        self.reset()

    def reset(self):
        self.left, self.flat, self.handle = len(self.params), None, None

    @torch.no_grad()
    def arrive(self):
        self.left -= 1
        if self.left == 0:
            self.flat = torch.cat([q.grad.reshape(-1) for q in self.params])
            self.flat /= dist.get_world_size()
            self.handle = dist.all_reduce(self.flat, async_op=True)

    @torch.no_grad()
    def settle(self):
        self.handle.get_future().wait()
        for q, part in zip(self.params, self.flat.split([q.numel() for q in self.params])):
            q.grad.copy_(part.view_as(q))
        self.reset()


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = [_Bucket(b) for b in _plan(reversed(list(model.parameters())), bucket_bytes)]
        self.owner = {p: b for b in self.buckets for p in b.params}
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        bucket = self.owner[p]
        bucket.arrive()
        if bucket.handle is not None:
            self.launched.append(bucket)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for bucket in self.launched:
            bucket.settle()
        self.launched = []
