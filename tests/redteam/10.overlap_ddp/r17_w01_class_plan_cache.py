# expect: fail bucket plan cached on the class, reused by a later instance over a float64 model
# hint: instance|class|plan|carr|float64|8 bytes|bucket
import torch
import torch.distributed as dist


class OverlappedDDP:
    _plans = {}  # (number of parameters, cap) -> bucket plan, as indices

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        key = (len(params), bucket_bytes)
        if key not in OverlappedDDP._plans:  # plan once per architecture and cap
            plan, current, size = [], [], 0
            for i in reversed(range(len(params))):
                current.append(i)
                size += params[i].numel() * params[i].element_size()
                if size >= bucket_bytes:
                    plan.append(current)
                    current, size = [], 0
            if current:
                plan.append(current)
            OverlappedDDP._plans[key] = plan
        self.buckets = [[params[i] for i in idx] for idx in OverlappedDDP._plans[key]]
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
