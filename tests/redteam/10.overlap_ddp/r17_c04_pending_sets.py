# expect: pass
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Each bucket keeps the set of parameters still to arrive; it launches when that set empties."""

    def __init__(self, model, bucket_bytes):
        self.world = dist.get_world_size()
        order = list(model.parameters())
        order.reverse()
        self.buckets, cur, cur_bytes = [], [], 0
        for p in order:
            cur.append(p)
            cur_bytes += p.numel() * p.element_size()
            if cur_bytes >= bucket_bytes:
                self.buckets.append(tuple(cur))
                cur, cur_bytes = [], 0
        if cur:
            self.buckets.append(tuple(cur))
        self.index = {}
        for k, bucket in enumerate(self.buckets):
            for p in bucket:
                self.index[id(p)] = k
        self._reset()
        for p in order:
            p.register_post_accumulate_grad_hook(self._hook)

    def _reset(self):
        self.waiting = [{id(p) for p in bucket} for bucket in self.buckets]
        self.handles = []

    def _hook(self, p):
        k = self.index[id(p)]
        self.waiting[k].discard(id(p))
        if not self.waiting[k]:
            grads = [q.grad.reshape(-1) for q in self.buckets[k]]
            flat = torch.cat(grads) / self.world
            self.handles.append((k, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        for k, flat, handle in self.handles:
            handle.wait()
            pos = 0
            for q in self.buckets[k]:
                q.grad.view(-1).copy_(flat[pos : pos + q.numel()])
                pos += q.numel()
        self._reset()


answer = OverlappedDDP
