# expect: fail walks model.state_dict(keep_vars=True) in reverse instead of model.parameters(), so buffers (BatchNorm's running statistics) add their bytes to the buckets and tied weights are planned twice: buckets differ from the rule as soon as the model has a buffer
# hint: buffer|state_dict|running|batch.?norm|model\.parameters\(\)|tied|bytes? of (the )?bucket
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        tensors = list(model.state_dict(keep_vars=True).values())  # in registration order
        self.buckets, cur, size = [], [], 0
        for t in reversed(tensors):
            size += t.numel() * t.element_size()
            if t.requires_grad:
                cur.append(t)
            if size >= bucket_bytes:
                if cur:
                    self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.launched:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
