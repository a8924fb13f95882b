# expect: fail fills buckets in the order gradients arrive, not reverse parameter order
# hint: order|revers|arriv|bucket|model\.parameters
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        self.params = list(model.parameters())
        self.bucket_bytes = bucket_bytes
        self.current, self.size = [], 0
        self.launched = []
        for p in self.params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        # backward hands the gradients over in its order: fill the bucket as they come
        self.current.append(p)
        self.size += p.numel() * p.element_size()
        if self.size >= self.bucket_bytes or len(self.current) + sum(
            len(b) for b, _, _ in self.launched
        ) == len(self.params):
            bucket = self.current
            self.current, self.size = [], 0
            flat = torch.cat([q.grad.reshape(-1) for q in bucket])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            self.launched.append((bucket, flat, handle))

    def finish(self):
        for bucket, flat, handle in self.launched:
            handle.wait()
            offset = 0
            for q in bucket:
                n = q.numel()
                q.grad.copy_(flat[offset : offset + n].view_as(q.grad))
                offset += n
        self.launched = []
        self.current, self.size = [], 0


answer = OverlappedDDP
