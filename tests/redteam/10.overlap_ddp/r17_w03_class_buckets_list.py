# expect: fail buckets list declared on the class, so a later instance's bucket indices point at an earlier instance's buckets
# hint: instance|class|carr|bucket|shared|previous|earlier
import torch
import torch.distributed as dist


class OverlappedDDP:
    buckets = []  # list of lists of parameters
    bucket_of = {}  # id(param) -> bucket index

    def __init__(self, model, bucket_bytes):
        current, size, k = [], 0, 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            self.bucket_of[id(p)] = k
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size, k = [], 0, k + 1
        if current:
            self.buckets.append(current)
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
