# expect: pass
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self):
        self.params = []
        self.nbytes = 0
        self.arrived = set()
        self.work = None


class OverlappedDDP:
    """A small object per bucket; hooks are per-parameter lambdas; copy back from the future's value."""

    def __init__(self, model, bucket_bytes):
        self.world = dist.get_world_size()
        self.buckets = [_Bucket()]
        owner = {}
        for p in list(model.parameters())[::-1]:
            if self.buckets[-1].nbytes >= bucket_bytes:
                self.buckets.append(_Bucket())
            b = self.buckets[-1]
            b.params.append(p)
            b.nbytes += p.element_size() * p.numel()
            owner[p] = b
        self.launched = []
        for p, b in owner.items():
            p.register_post_accumulate_grad_hook(lambda param, b=b: self._arrive(b, param))

    @torch.no_grad()
    def _arrive(self, b, p):
        b.arrived.add(p)
        if len(b.arrived) == len(b.params):
            flat = torch.cat([q.grad.reshape(-1) for q in b.params]) / self.world
            b.work = dist.all_reduce(flat, async_op=True)
            self.launched.append(b)

    @torch.no_grad()
    def finish(self):
        for b in self.launched:
            fut = b.work.get_future()
            fut.wait()
            value = fut.value()
            flat = value[0] if isinstance(value, (list, tuple)) else value
            offset = 0
            for p in b.params:
                n = p.numel()
                p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
                offset += n
            b.arrived = set()
            b.work = None
        self.launched = []
