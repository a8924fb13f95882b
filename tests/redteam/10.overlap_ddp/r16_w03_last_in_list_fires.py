# expect: fail launches a bucket from the hook of its last parameter in the list, assuming gradients arrive in reverse order of model.parameters()
# hint: order|arriv|last gradient|count|reverse|registered|bucket\[-1\]|its own last
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
        # backward runs through the parameters in reverse: a bucket is full when the
        # gradient of its last parameter arrives
        self.closes = {bucket[-1]: bucket for bucket in self.buckets}
        self.handles = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        bucket = self.closes.get(p)
        if bucket is not None:
            flat = torch.cat([q.grad.reshape(-1) for q in bucket]) / dist.get_world_size()
            self.handles.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for handle, flat, bucket in self.handles:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q))
                offset += q.numel()
        self.handles = []


answer = OverlappedDDP
