# expect: fail buckets are formed on the fly every step from the gradients in the order they arrive (close at >= bucket_bytes), not from the reverse order of model.parameters()
# hint: order|arriv|revers
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.bucket_bytes = bucket_bytes
        self.n_params = len(list(model.parameters()))
        self._reset()
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _reset(self):
        self.cur, self.size, self.seen = [], 0, 0
        self.pending = []

    def _hook(self, p):
        self.seen += 1
        self.cur.append(p)
        self.size += p.numel() * p.element_size()
        if self.size >= self.bucket_bytes or self.seen == self.n_params:
            params = self.cur
            flat = torch.cat([q.grad.reshape(-1) for q in params])
            flat /= dist.get_world_size()
            self.pending.append((params, flat, dist.all_reduce(flat, async_op=True)))
            self.cur, self.size = [], 0

    def finish(self):
        for params, flat, h in self.pending:
            h.wait()
            off = 0
            for p in params:
                p.grad.copy_(flat[off:off + p.numel()].view_as(p))
                off += p.numel()
        self._reset()


answer = OverlappedDDP
