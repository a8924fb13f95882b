# expect: pass Closes a bucket just before a parameter would take it past the cap (the allowed alternative rule), waits through handle.get_future().wait(), and divides in finish() after the wait.
# hint: 
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        plan, current, current_bytes = [], [], 0
        for p in list(model.parameters())[::-1]:
            nbytes = p.numel() * p.element_size()
            if current and current_bytes + nbytes > bucket_bytes:
                plan.append(current)
                current, current_bytes = [], 0
            current.append(p)
            current_bytes += nbytes
        if current:
            plan.append(current)
        self._plan = plan
        self._where = {}
        for b, bucket in enumerate(plan):
            for p in bucket:
                self._where[id(p)] = b
        self._count = [0] * len(plan)
        self._launched = []  # (bucket, handle, flat)
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self._where[id(p)]
        self._count[b] += 1
        if self._count[b] < len(self._plan[b]):
            return
        flat = torch.cat([q.grad.detach().reshape(-1) for q in self._plan[b]])
        self._launched.append((b, dist.all_reduce(flat, async_op=True), flat))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        world = dist.get_world_size()
        for b, handle, flat in self._launched:
            handle.get_future().wait()
            flat = flat / world
            sizes = [q.numel() for q in self._plan[b]]
            for q, part in zip(self._plan[b], torch.split(flat, sizes)):
                q.grad.detach().copy_(part.view_as(q.grad))
        self._launched.clear()
        self._count = [0] * len(self._plan)
