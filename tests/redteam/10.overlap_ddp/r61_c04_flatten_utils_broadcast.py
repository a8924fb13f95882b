# expect: pass broadcasts the parameters from rank 0 in __init__ as DDP's constructor does, flattens and unflattens with torch._utils' dense-tensor helpers, maps parameters to buckets by index
# hint:
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.params = [p for p in model.parameters() if p.requires_grad]
        with torch.no_grad():
            for p in self.params:
                dist.broadcast(p.data, src=0)
        self.bucket_of = [None] * len(self.params)
        self.index_of = {id(p): k for k, p in enumerate(self.params)}
        self.members = [[]]
        size = 0
        for k in range(len(self.params) - 1, -1, -1):
            p = self.params[k]
            self.members[-1].append(k)
            self.bucket_of[k] = len(self.members) - 1
            size += p.numel() * p.element_size()
            if size >= bucket_bytes and k > 0:
                self.members.append([])
                size = 0
        self.count = [0] * len(self.members)
        self.handles = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.bucket_of[self.index_of[id(p)]]
        self.count[b] += 1
        if self.count[b] < len(self.members[b]):
            return
        grads = [self.params[k].grad for k in self.members[b]]
        flat = _flatten_dense_tensors(grads) / dist.get_world_size()
        self.handles.append((b, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b, flat, handle in self.handles:
            handle.wait()
            grads = [self.params[k].grad for k in self.members[b]]
            for grad, avg in zip(grads, _unflatten_dense_tensors(flat, grads)):
                grad.copy_(avg)
        self.handles = []
        self.count = [0] * len(self.members)


answer = OverlappedDDP
