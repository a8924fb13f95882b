# expect: fail tidies up by removing its hooks in finish(), so from the second step on no hook fires: nothing is launched and every rank steps on its own local gradients
# hint: remov|hooks? .{0,40}(gone|removed|no longer|never fire|not fire)|(second|later|next) steps?|only (the )?first step|nothing (is )?(launched|sent)
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
        self.pending = []
        self.hook_handles = [
            p.register_post_accumulate_grad_hook(self._hook) for p in model.parameters()
        ]

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat.div_(dist.get_world_size())
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, i in self.pending:
            handle.wait()
            bucket = self.buckets[i]
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        for h in self.hook_handles:  # the step is done: leave no hooks behind
            h.remove()
        self.hook_handles = []
        self.pending = []
        self.counts = [0] * len(self.buckets)
