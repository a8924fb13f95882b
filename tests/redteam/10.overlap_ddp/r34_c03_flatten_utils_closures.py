# expect: pass hooks made per bucket by a factory function (closure over the bucket index), torch._utils flatten/unflatten, launch order list, p.grad replaced by new tensors in finish
# hint:
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        order = list(model.parameters())[::-1]
        self.buckets = []
        acc = 0
        for p in order:
            if not self.buckets or acc >= bucket_bytes:
                self.buckets.append([])
                acc = 0
            self.buckets[-1].append(p)
            acc += p.nelement() * p.element_size()
        self.counts = [0] * len(self.buckets)
        self.launched = []
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._make_hook(i))

    def _make_hook(self, i):
        def hook(p):
            self._hook(p, i)

        return hook

    def _hook(self, p, i=None):
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = _flatten_dense_tensors([q.grad for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        launched, self.launched = self.launched, []
        self.counts = [0] * len(self.buckets)
        for i, flat, work in launched:
            work.wait()
            grads = _unflatten_dense_tensors(flat, [q.grad for q in self.buckets[i]])
            for q, g in zip(self.buckets[i], grads):
                q.grad.copy_(g)


answer = OverlappedDDP
