# expect: fail never clears the list of handles in finish(), so every later step waits again on all earlier steps' handles and copies their stale averages (right only because the newest copy comes last; the list grows forever)
# hint: handle|wait(ed)? (more than )?once|twice|clear|reset|grow|stale|previous step
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self.buckets = []
        current, size = [], 0
        for p in reversed(params):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        self.bucket_of = {}
        for i, bucket in enumerate(self.buckets):
            for p in bucket:
                self.bucket_of[p] = i
        self.counts = [0] * len(self.buckets)
        self.handles = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            handle = dist.all_reduce(flat, async_op=True)
            self.handles.append((i, flat, handle))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.handles:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.copy_(flat[offset:offset + n].view_as(q.grad))
                offset += n
        self.counts = [0] * len(self.buckets)


answer = OverlappedDDP
