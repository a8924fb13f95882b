# expect: fail treats the post-accumulate hook's argument as the gradient and keeps it, but autograd passes the parameter itself: each bucket flattens and averages the weights, and finish() writes the weights into p.grad
# hint: param(eter)?s? (itself|not (the )?grad|instead of)|argument.{0,50}param|weights? (into|in) p\.grad|sends? (the )?(weights|param)|p\.grad|hook\(p\)
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
        self.where = {p: (i, j) for i, b in enumerate(self.buckets) for j, p in enumerate(b)}
        self.ready = [[None] * len(b) for b in self.buckets]
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, grad):
        """Autograd calls this once p.grad holds this step's gradient."""
        i, j = self.where[grad]
        self.ready[i][j] = grad  # this step's gradient, as autograd hands it over
        if all(g is not None for g in self.ready[i]):
            flat = torch.cat([g.reshape(-1) for g in self.ready[i]])
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
        self.pending = []
        self.ready = [[None] * len(b) for b in self.buckets]
