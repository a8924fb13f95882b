# expect: fail when a bucket is ready it all-reduces each of its gradients separately (one collective per parameter) instead of one flat tensor per bucket
# hint: flat|bucket|one all.reduce|per param|sent|collective
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
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
        self.bucket_of = {p: i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.handles = []
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            # in place on the gradients themselves: no flat copy to make, none to copy back
            world = dist.get_world_size()
            for q in self.buckets[i]:
                q.grad.div_(world)
                self.handles.append(dist.all_reduce(q.grad, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle in self.handles:
            handle.wait()
        self.handles = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
