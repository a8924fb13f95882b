# expect: fail assigns buckets in the order the gradients arrive in backward (first step), not by reverse model.parameters()
# hint: order|arriv|reverse|parameters
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets, cur, size = [], [], 0
        for p in reversed(params):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.bucket_of = {}
        self._cap = bucket_bytes
        self._open, self._open_bytes = [], 0
        self.buckets = []
        self.count = []
        self.handles = []
        self._nparams = len(params)
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        if p not in self.bucket_of:  # first step: buckets in arrival order
            self._open.append(p)
            self._open_bytes += p.numel() * p.element_size()
            self.bucket_of[p] = len(self.buckets)
            if self._open_bytes >= self._cap or len(self.bucket_of) == self._nparams:
                self.buckets.append(self._open)
                self.count.append(0)
                self._open, self._open_bytes = [], 0
            else:
                return
            self.count[-1] = len(self.buckets[-1]) - 1
        i = self.bucket_of[p]
        self.count[i] += 1
        if self.count[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, i))

    def finish(self):
        for handle, flat, i in self.handles:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset:offset + n].view_as(q))
                offset += n
        self.handles = []
        self.count = [0] * len(self.buckets)


answer = OverlappedDDP
