# expect: fail zero-copy buckets: the first step makes each p.grad a view into its bucket's flat tensor and keeps it, and later steps all-reduce that kept tensor with no copy in or out; opt.zero_grad() (set_to_none=True) then gives fresh p.grad tensors, so the stale bucket is sent and those grads stay local
# hint: view|stale|set_to_none|fresh|new (grad|tensor)|no longer|kept|(third|later|next|last) step|zero_grad
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.counts = [0] * len(self.buckets)
        self.flats = [None] * len(self.buckets)  # like gradient_as_bucket_view=True
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] < len(self.buckets[i]):
            return
        if self.flats[i] is None:  # first step: move the grads into the bucket once
            bucket = self.buckets[i]
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            offset = 0
            for q in bucket:
                q.grad = flat[offset : offset + q.numel()].view_as(q)
                offset += q.numel()
            self.flats[i] = flat
        flat = self.flats[i]  # the grads live in it: nothing to copy
        flat.div_(dist.get_world_size())
        self.handles.append(dist.all_reduce(flat, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle in self.handles:
            handle.wait()  # p.grad are views of the flats: already averaged
        self.handles = []
        self.counts = [0] * len(self.buckets)
