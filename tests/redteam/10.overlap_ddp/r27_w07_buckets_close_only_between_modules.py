# expect: fail closes a bucket only at the end of a module (a layer's weight and bias always travel together), checking the cap per layer instead of per parameter: with a cap a single parameter reaches (bucket_bytes=1, or a cap reached between a weight and its bias) the buckets differ from the rule
# hint: (module|layer).{0,60}(boundar|together|whole|end|split|per layer|granular)|weight and (its )?bias|between (modules|layers)|per (module|layer)|carr(y|ied)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, current, size = [], [], 0
        for module in reversed(list(model.modules())):
            own = list(module.parameters(recurse=False))
            if not own:
                continue
            for p in reversed(own):  # a layer's parameters stay in one bucket
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
            flat /= dist.get_world_size()
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
