# expect: fail launches a bucket when its ready bytes reach bucket_bytes (the planning rule reused) instead of when all its gradients are in: the smaller last bucket never reaches the cap and is sent from finish(), after backward, and when gradients arrive out of order a bucket can be sent before its last one
# hint: (last|smaller|final) bucket|never reach|all (its|of its|the bucket'?s?) (grad|param)|count|(launch|sent|send)\w* (in|from) finish|after backward|before (its|the) last|early|launched only after
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
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
        self.ready_bytes = [0] * len(self.buckets)
        self.launched = [False] * len(self.buckets)
        self.pending = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _launch(self, i):
        flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
        flat.div_(dist.get_world_size())
        self.pending.append((dist.all_reduce(flat, async_op=True), flat, i))
        self.launched[i] = True

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.ready_bytes[i] += p.numel() * p.element_size()
        if self.ready_bytes[i] >= self.bucket_bytes and not self.launched[i]:
            self._launch(i)  # the bucket is full

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, done in enumerate(self.launched):
            if not done:  # the last bucket may be smaller than the cap
                self._launch(i)
        for handle, flat, i in self.pending:
            handle.wait()
            bucket = self.buckets[i]
            for q, part in zip(bucket, flat.split([q.numel() for q in bucket])):
                q.grad.copy_(part.view_as(q))
        self.pending = []
        self.ready_bytes = [0] * len(self.buckets)
        self.launched = [False] * len(self.buckets)
