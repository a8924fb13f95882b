# expect: pass
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


class _StagedAverager:
    """Packs gradients into a staging buffer of at most cap bytes per dtype; larger ones go alone."""

    def __init__(self, cap_bytes=1 << 20):
        self.cap_bytes = cap_bytes
        self.staging = {}  # (dtype, device) -> buffer of cap_bytes: the memory kept is fixed

    def _flush(self, grads, world):
        if not grads:
            return
        g0 = grads[0]
        key = (g0.dtype, g0.device)
        if key not in self.staging:
            self.staging[key] = torch.empty(self.cap_bytes // g0.element_size(), dtype=g0.dtype, device=g0.device)
        sizes = [g.numel() for g in grads]
        buf = self.staging[key][: sum(sizes)]
        torch.cat([g.reshape(-1) for g in grads], out=buf)
        dist.all_reduce(buf)
        buf.div_(world)
        for g, part in zip(grads, buf.split(sizes)):
            g.copy_(part.view_as(g))

    @torch.no_grad()
    def __call__(self, model):
        world = dist.get_world_size()
        bucket, nbytes = [], 0
        for p in model.parameters():
            g = p.grad
            if g is None:
                continue
            size = g.numel() * g.element_size()
            if size > self.cap_bytes:  # too big to stage: in place, alone
                dist.all_reduce(g)
                g.div_(world)
                continue
            if bucket and (nbytes + size > self.cap_bytes or g.dtype != bucket[0].dtype or g.device != bucket[0].device):
                self._flush(bucket, world)
                bucket, nbytes = [], 0
            bucket.append(g)
            nbytes += size
        self._flush(bucket, world)


average_gradients = _StagedAverager()
