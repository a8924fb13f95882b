# expect: pass the allowed other rule (close before a parameter would take the bucket past the cap), small Bucket objects, flatten/unflatten helpers
# hint:
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class _Bucket:
    def __init__(self):
        self.params = []
        self.nbytes = 0
        self.ready = 0
        self.flat = None
        self.handle = None


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = [_Bucket()]
        for p in reversed([*model.parameters()]):
            size = p.numel() * p.element_size()
            last = self.buckets[-1]
            if last.params and last.nbytes + size > bucket_bytes:  # no bucket above the cap
                last = _Bucket()
                self.buckets.append(last)
            last.params.append(p)
            last.nbytes += size
        self.owner = {id(p): b for b in self.buckets for p in b.params}
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.owner[id(p)]
        b.ready += 1
        if b.ready == len(b.params):
            flat = _flatten_dense_tensors([q.grad for q in b.params])
            flat.mul_(1.0 / dist.get_world_size())
            b.flat, b.handle = flat, dist.all_reduce(flat, async_op=True)
            self.launched.append(b)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b in self.launched:
            b.handle.wait()
        for b in self.launched:
            grads = [q.grad for q in b.params]
            for g, avg in zip(grads, _unflatten_dense_tensors(b.flat, grads)):
                g.copy_(avg)
            b.flat = b.handle = None
        for b in self.buckets:
            b.ready = 0
        self.launched.clear()


answer = OverlappedDDP
