# expect: pass
# hint:
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params, self.seen, self.flat, self.handle = params, 0, None, None

    def __call__(self, p):  # the hook
        self.seen += 1
        if self.seen == len(self.params):
            self.flat = torch.cat([q.grad.reshape(-1) for q in self.params])
            self.flat.mul_(1.0 / dist.get_world_size())
            self.handle = dist.all_reduce(self.flat, async_op=True)

    def finish(self):
        if self.handle is not None:
            self.handle.wait()
            for q, part in zip(self.params, torch.split(self.flat, [q.numel() for q in self.params])):
                q.grad.copy_(part.reshape(q.shape))
        self.seen, self.flat, self.handle = 0, None, None


class _Overlapped:
    def __init__(self, model, bucket_bytes):
        self.buckets, cur, size = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.element_size() * p.numel()
            if size >= bucket_bytes:
                self.buckets.append(_Bucket(cur))
                cur, size = [], 0
        if cur:
            self.buckets.append(_Bucket(cur))
        for b in self.buckets:
            for p in b.params:
                p.register_post_accumulate_grad_hook(b)

    def finish(self):
        for b in self.buckets:
            b.finish()


def answer(model, bucket_bytes):
    return _Overlapped(model, bucket_bytes)
