# expect: fail keeps one running list of ready gradients and never empties it after a launch, so each bucket's all-reduce carries every earlier bucket again: the first bucket is sent once per bucket, bytes grow quadratically; the averages still come out right
# hint: (sent|send|resen\w*|carr\w*).{0,60}(twice|again|more than once|earlier)|twice|never (cleared|emptied|reset)|not (cleared|emptied)|earlier (grad|bucket|param)|prefix|grow
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
        self.ready = []  # parameters whose bucket is complete, in bucket order
        self.sent = []  # (handle, flat, parameters in flat)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.bucket_of[p]
        self.counts[i] += 1
        if self.counts[i] == len(self.buckets[i]):
            self.ready.extend(self.buckets[i])
            flat = torch.cat([q.grad.reshape(-1) for q in self.ready])
            flat.div_(dist.get_world_size())
            self.sent.append((dist.all_reduce(flat, async_op=True), flat, list(self.ready)))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, params in self.sent:
            handle.wait()
            for q, part in zip(params, flat.split([q.numel() for q in params])):
                q.grad.copy_(part.view_as(q))
        self.sent = []
        self.ready = []
        self.counts = [0] * len(self.buckets)
