# expect: pass plans the buckets with a generator over running byte totals, counts down remaining gradients per bucket, hooks are closures, handles kept in a dict by bucket index
# hint:
import torch
import torch.distributed as dist


def _plan(params, cap):
    """Yield lists of parameters, in reverse order, each closed once it reaches cap bytes."""
    group, total = [], 0
    for p in params[::-1]:
        group.append(p)
        total += p.element_size() * p.numel()
        if total >= cap:
            yield group
            group, total = [], 0
    if group:
        yield group


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = [p for p in model.parameters() if p.requires_grad]
        self.groups = list(_plan(params, bucket_bytes))
        self.left = [len(g) for g in self.groups]
        self.inflight = {}
        for index, group in enumerate(self.groups):
            for p in group:
                p.register_post_accumulate_grad_hook(self._make_hook(index))

    def _make_hook(self, index):
        def hook(p):
            self.left[index] -= 1
            if self.left[index] == 0:
                self._send(index)

        return hook

    def _send(self, index):
        group = self.groups[index]
        flat = torch.cat([q.grad.reshape(-1) for q in group])
        flat = torch.div(flat, dist.get_world_size())
        self.inflight[index] = (dist.all_reduce(flat, async_op=True), flat)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        for index, group in enumerate(self.groups):
            if any(q is p for q in group):
                self._make_hook(index)(p)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for index, (work, flat) in list(self.inflight.items()):
            work.wait()
            start = 0
            for q in self.groups[index]:
                stop = start + q.numel()
                q.grad.copy_(flat[start:stop].reshape(q.grad.shape))
                start = stop
        self.inflight.clear()
        self.left = [len(g) for g in self.groups]


answer = OverlappedDDP
