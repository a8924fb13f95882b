# expect: fail bucket sizes cached at module level by cap, reused by a later instance over a float64 model
# hint: instance|module|global|plan|carr|float64|8 bytes|bucket
import torch
import torch.distributed as dist


_PLAN_CACHE = {}  # bucket_bytes -> how many parameters each bucket takes


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        order = list(reversed(list(model.parameters())))
        if bucket_bytes not in _PLAN_CACHE:
            lengths, n, size = [], 0, 0
            for p in order:
                n += 1
                size += p.numel() * p.element_size()
                if size >= bucket_bytes:
                    lengths.append(n)
                    n, size = 0, 0
            if n:
                lengths.append(n)
            _PLAN_CACHE[bucket_bytes] = lengths
        self.buckets, start = [], 0
        for n in _PLAN_CACHE[bucket_bytes]:
            self.buckets.append(order[start : start + n])
            start += n
        self.bucket_of = {id(p): i for i, bucket in enumerate(self.buckets) for p in bucket}
        self.ready = [0] * len(self.buckets)
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.bucket_of[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.launched.append((i, flat, handle))

    def finish(self):
        for i, flat, handle in self.launched:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
