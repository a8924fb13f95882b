# expect: fail It builds the buckets during the first backward in the order the gradients arrive, not in reverse order of model.parameters(), so when layers are registered in another order than forward runs them the buckets differ from the rule.
# hint: reverse|order|parameters\(\)|arrive|registered
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.params = list(model.parameters())
        self.bucket_bytes = bucket_bytes
        self.buckets = None  # planned on the first backward, in the order gradients come
        self._open, self._open_bytes, self._planned = [], 0, []
        self.bucket_of = {}
        self.ready = []
        self.pending = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _launch(self, i):
        with torch.no_grad():
            flat = torch.cat([q.grad.reshape(-1) for q in self._bucket(i)])
            flat.div_(dist.get_world_size())
        self.pending.append((i, dist.all_reduce(flat, async_op=True), flat))

    def _bucket(self, i):
        return (self.buckets or self._planned)[i]

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        if self.buckets is None:  # first step: fill buckets as the gradients arrive
            self._open.append(p)
            self._open_bytes += p.numel() * p.element_size()
            seen = sum(len(b) for b in self._planned) + len(self._open)
            if self._open_bytes >= self.bucket_bytes or seen == len(self.params):
                self._planned.append(self._open)
                for q in self._open:
                    self.bucket_of[id(q)] = len(self._planned) - 1
                self._open, self._open_bytes = [], 0
                self._launch(len(self._planned) - 1)
            return
        i = self.bucket_of[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            self._launch(i)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        with torch.no_grad():
            for i, handle, flat in self.pending:
                handle.wait()
                offset = 0
                for q in self._bucket(i):
                    n = q.numel()
                    q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                    offset += n
        if self.buckets is None:
            self.buckets = self._planned
        self.pending = []
        self.ready = [0] * len(self.buckets)
