# expect: fail reads the world size once, in the class body, when the cell defining the class runs: no process group exists yet, so it is 1, and every rank all-reduces undivided gradients: p.grad ends up with the sum over the ranks, not the average
# hint: world.{0,60}(class (body|attribute|level)|defin|import|once|is 1\b|one\b|before.{0,30}(init|process group))|(not|never)\b.{0,30}divid|\bsum(s|med)?\b.{0,30}(instead|not the average)|undivided|sum over the ranks
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    # looked up once for all instances, not in every hook
    WORLD = dist.get_world_size() if dist.is_initialized() else 1

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
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= self.WORLD
            self.pending.append((dist.all_reduce(flat, async_op=True), flat, self.buckets[i]))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.pending:
            handle.wait()
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.counts = [0] * len(self.buckets)
