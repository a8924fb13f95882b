# expect: pass closes each bucket just before a parameter would take it past the cap (the allowed no-exceed rule, a bucket never left empty); one closure per bucket with a nonlocal countdown launches it; finish() waits through handle.get_future().wait()
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        groups, current, size = [], [], 0
        for p in reversed(list(model.parameters())):
            nbytes = p.numel() * p.element_size()
            if current and size + nbytes > bucket_bytes:
                groups.append(current)
                current, size = [], 0
            current.append(p)
            size += nbytes
        if current:
            groups.append(current)
        self.in_flight = []
        self._resets = []
        self._hook_of = {}
        for group in groups:
            self._make_bucket(group)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _make_bucket(self, group):
        left = len(group)

        @torch.no_grad()
        def arrived():
            nonlocal left
            left -= 1
            if left == 0:
                flat = torch.cat([q.grad.reshape(-1) for q in group]).div_(dist.get_world_size())
                self.in_flight.append((dist.all_reduce(flat, async_op=True), flat, group))

        def reset():
            nonlocal left
            left = len(group)

        self._resets.append(reset)
        for q in group:
            self._hook_of[q] = arrived

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        self._hook_of[p]()

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for work, flat, group in self.in_flight:
            work.get_future().wait()
            for q, chunk in zip(group, torch.split(flat, [q.numel() for q in group])):
                q.grad.copy_(chunk.reshape(q.shape))
        self.in_flight.clear()
        for reset in self._resets:
            reset()
