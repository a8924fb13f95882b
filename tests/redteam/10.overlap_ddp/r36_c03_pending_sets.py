# expect: pass each bucket tracks the set of parameters still pending; the hook launches when the set empties
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self._buckets = [[]]
        filled = 0
        for p in reversed(params):
            if filled >= bucket_bytes:  # the previous bucket reached the cap: start a new one
                self._buckets.append([])
                filled = 0
            self._buckets[-1].append(p)
            filled += p.numel() * p.element_size()
        if not self._buckets[-1]:
            self._buckets.pop()
        self._bucket_of = {id(p): k for k, b in enumerate(self._buckets) for p in b}
        self._pending = [set(map(id, b)) for b in self._buckets]
        self._inflight = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        k = self._bucket_of[id(p)]
        waiting = self._pending[k]
        waiting.discard(id(p))
        if waiting:
            return
        members = self._buckets[k]
        flat = torch.cat([m.grad.reshape(-1) for m in members]) / dist.get_world_size()
        handle = dist.all_reduce(flat, async_op=True)
        self._inflight.append((members, flat, handle))

    def finish(self):
        inflight, self._inflight = self._inflight, []
        for members, flat, handle in inflight:
            handle.wait()
            at = 0
            for m in members:
                m.grad.copy_(flat[at:at + m.numel()].reshape(m.grad.shape))
                at += m.numel()
        self._pending = [set(map(id, b)) for b in self._buckets]
