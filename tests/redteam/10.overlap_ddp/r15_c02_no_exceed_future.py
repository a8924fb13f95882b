# expect: pass close-before-exceeding rule, bucket objects, divide after wait via get_future()
# hint: 
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self):
        self.params = []
        self.nbytes = 0
        self.seen = 0
        self.flat = None
        self.work = None


class OverlappedDDP:
    """Buckets never exceed the cap (the alternative rule the prompt accepts)."""

    def __init__(self, model, bucket_bytes):
        self.world = dist.get_world_size()
        self.buckets = [_Bucket()]
        self.owner = {}
        for p in list(model.parameters())[::-1]:
            size = p.numel() * p.element_size()
            b = self.buckets[-1]
            if b.params and b.nbytes + size > bucket_bytes:
                b = _Bucket()
                self.buckets.append(b)
            b.params.append(p)
            b.nbytes += size
            self.owner[p] = b
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)
        self.launched = []

    def _hook(self, p):
        b = self.owner[p]
        b.seen += 1
        if b.seen == len(b.params):
            b.flat = torch.cat([q.grad.reshape(-1) for q in b.params])
            b.work = dist.all_reduce(b.flat, async_op=True)
            self.launched.append(b)

    def finish(self):
        for b in self.launched:
            b.work.get_future().wait()
            b.flat.div_(self.world)
            offset = 0
            for q in b.params:
                n = q.numel()
                q.grad.copy_(b.flat[offset:offset + n].reshape(q.shape))
                offset += n
        for b in self.buckets:
            b.seen, b.flat, b.work = 0, None, None
        self.launched.clear()


answer = OverlappedDDP
