# expect: fail launches a bucket from the hook of the bucket's last parameter in list order instead of counting its ready gradients, so it can send before the other gradients exist
# hint: count|ready|last (one|gradient).{0,30}(arriv|ready)|arriv|before.{0,40}(ready|exist|comput)|order|not (yet )?(ready|computed)|incomplete
# Wrong: the prompt says to count the bucket's ready gradients and launch when the last one
# arrives; assuming the last parameter listed arrives last holds only when backward runs in
# reverse order of model.parameters(), not for layers registered in another order.
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets = []
        current, size = [], 0
        for p in reversed(list(model.parameters())):
            current.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(current)
                current, size = [], 0
        if current:
            self.buckets.append(current)
        # backward fills a bucket in the order it lists its parameters: its last one closes it
        self.closes = {bucket[-1]: i for i, bucket in enumerate(self.buckets)}
        self.pending = []
        for bucket in self.buckets:
            for p in bucket:
                p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.closes.get(p)
        if i is None:
            return
        bucket = self.buckets[i]
        flat = torch.cat([q.grad.reshape(-1) for q in bucket])
        flat.div_(dist.get_world_size())
        self.pending.append((dist.all_reduce(flat, async_op=True), flat, bucket))

    def finish(self):
        for handle, flat, bucket in self.pending:
            handle.wait()
            offset = 0
            for q in bucket:
                q.grad.copy_(flat[offset : offset + q.numel()].view_as(q.grad))
                offset += q.numel()
        self.pending = []


answer = OverlappedDDP
