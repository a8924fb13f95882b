# expect: pass "no bucket exceeds the cap" rule; a preallocated flat buffer per bucket in the parameters' dtype, gradients copied into it, unflattened with split
# hint:
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.numels = [p.numel() for p in params]
        self.buffer = torch.zeros(sum(self.numels), dtype=params[0].dtype)
        self.seen = 0
        self.work = None


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        groups, cur, cur_bytes = [], [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if cur and cur_bytes + nbytes > bucket_bytes:
                groups.append(cur)
                cur, cur_bytes = [], 0
            cur.append(p)
            cur_bytes += nbytes
        if cur:
            groups.append(cur)
        self._buckets = [_Bucket(g) for g in groups]
        self._owner = {}
        for bk in self._buckets:
            for p in bk.params:
                self._owner[p] = bk
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        bk = self._owner[p]
        bk.seen += 1
        if bk.seen == len(bk.params):
            torch.cat([q.grad.reshape(-1) for q in bk.params], out=bk.buffer)
            bk.buffer.div_(dist.get_world_size())
            bk.work = dist.all_reduce(bk.buffer, async_op=True)

    def finish(self):
        for bk in self._buckets:
            if bk.work is not None:
                bk.work.wait()
                for q, part in zip(bk.params, bk.buffer.split(bk.numels)):
                    q.grad.copy_(part.view_as(q.grad))
            bk.work = None
            bk.seen = 0


answer = OverlappedDDP
