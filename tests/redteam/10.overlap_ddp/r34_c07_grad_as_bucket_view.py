# expect: pass gradient_as_bucket_view style: in the hook each p.grad becomes a view into the bucket's flat tensor before the in-place all-reduce, so finish() only waits
# hint:
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self._buckets = []
        run, run_bytes = [], 0
        for p in reversed(list(model.parameters())):
            run.append(p)
            run_bytes += p.numel() * p.element_size()
            if run_bytes >= bucket_bytes:
                self._buckets.append(tuple(run))
                run, run_bytes = [], 0
        if run:
            self._buckets.append(tuple(run))
        self._slot = {p: b for b, ps in enumerate(self._buckets) for p in ps}
        self._arrived = [0 for _ in self._buckets]
        self._works = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        b = self._slot[p]
        self._arrived[b] += 1
        if self._arrived[b] < len(self._buckets[b]):
            return
        ps = self._buckets[b]
        flat = torch.cat([q.grad.reshape(-1) for q in ps]).div_(dist.get_world_size())
        for q, part in zip(ps, flat.split([q.numel() for q in ps])):
            q.grad = part.view_as(q)  # the all-reduce lands in p.grad directly
        self._works.append(dist.all_reduce(flat, async_op=True))

    def finish(self):
        for work in self._works:
            work.wait()
        self._works.clear()
        self._arrived = [0 for _ in self._buckets]


answer = OverlappedDDP
