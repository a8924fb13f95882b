# expect: fail fills buckets in the order the gradients arrive (in the hook), not by the planned reverse order of model.parameters()
# hint: (arriv|order|revers|plan|__init__|buckets? hold|model\.parameters)
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.cap = bucket_bytes
        self.params = list(model.parameters())
        self.current, self.current_bytes = [], 0
        self.pending = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        # the bucket is whatever gradients are ready, in the order backward produces them
        self.current.append(p)
        self.current_bytes += p.numel() * p.element_size()
        if self.current_bytes >= self.cap or len(self.current) == len(self.params) - self._sent():
            self._launch()

    def _sent(self):
        return sum(len(b) for b, _, _ in self.pending)

    def _launch(self):
        bucket = self.current
        flat = torch.cat([q.grad.reshape(-1) for q in bucket]) / dist.get_world_size()
        self.pending.append((bucket, flat, dist.all_reduce(flat, async_op=True)))
        self.current, self.current_bytes = [], 0

    def finish(self):
        for bucket, flat, handle in self.pending:
            handle.wait()
            off = 0
            for q in bucket:
                q.grad.copy_(flat[off:off + q.numel()].view_as(q))
                off += q.numel()
        self.pending = []
        self.current, self.current_bytes = [], 0
