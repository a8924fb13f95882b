# expect: pass DDP-style persistent flat buffer per bucket, each gradient copied into its slice as it arrives
# hint:
import torch
import torch.distributed as dist


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.sizes = [p.numel() for p in params]
        self.offsets = []
        off = 0
        for n in self.sizes:
            self.offsets.append(off)
            off += n
        # the bucket's own buffer, in the parameters' dtype, kept for every step
        self.buffer = torch.empty(off, dtype=params[0].dtype, device=params[0].device)
        self.slot = {p: i for i, p in enumerate(params)}
        self.arrived = 0
        self.handle = None


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        groups, current, size = [], [], 0
        for p in params[::-1]:
            current.append(p)
            size += p.nbytes
            if size >= bucket_bytes:
                groups.append(current)
                current, size = [], 0
        if current:
            groups.append(current)
        self.buckets = [_Bucket(g) for g in groups]
        self.owner = {p: b for b in self.buckets for p in b.params}
        self.launched = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.owner[p]
        i = b.slot[p]
        b.buffer[b.offsets[i]:b.offsets[i] + b.sizes[i]].copy_(p.grad.reshape(-1))
        b.arrived += 1
        if b.arrived == len(b.params):
            b.buffer.div_(dist.get_world_size())
            b.handle = dist.all_reduce(b.buffer, async_op=True)
            self.launched.append(b)

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for b in self.launched:
            b.handle.wait()
            for p, chunk in zip(b.params, b.buffer.split(b.sizes)):
                p.grad.copy_(chunk.view_as(p))
            b.handle = None
        for b in self.buckets:
            b.arrived = 0
        self.launched = []


answer = OverlappedDDP
