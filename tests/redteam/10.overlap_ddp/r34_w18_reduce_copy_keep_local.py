# expect: fail all-reduces a divided copy (flat / world) but keeps and copies back the local, undivided flat: p.grad gets the local gradient
# hint: average|copy|reduced|local|world
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
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.count = [0] * len(self.buckets)
        self.handles = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[p]
        self.count[i] += 1
        if self.count[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            avg = flat / dist.get_world_size()
            self.handles.append((dist.all_reduce(avg, async_op=True), flat, i))

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
