# expect: pass closes a bucket before a parameter would exceed the cap (the allowed variant), divides in finish() after the wait
# hint:
# name: OverlappedDDP
import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        plan, cur, cur_bytes = [], [], 0
        for p in list(model.parameters())[::-1]:
            size = p.nelement() * p.element_size()
            if cur and cur_bytes + size > bucket_bytes:
                plan.append(cur)
                cur, cur_bytes = [], 0
            cur.append(p)
            cur_bytes += size
        if cur:
            plan.append(cur)
        self.plan = plan
        self.index = {}
        for i, bucket in enumerate(plan):
            for p in bucket:
                self.index[p] = i
        self.counts = [0] * len(plan)
        self.launched = []  # (bucket index, flat tensor, work)
        for p in self.index:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        i = self.index[p]
        self.counts[i] += 1
        if self.counts[i] < len(self.plan[i]):
            return
        flat = torch.cat([q.grad.reshape(-1) for q in self.plan[i]])
        self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        world = dist.get_world_size()
        for i, flat, work in self.launched:
            work.wait()
            flat /= world
            pieces = flat.split([q.numel() for q in self.plan[i]])
            for q, piece in zip(self.plan[i], pieces):
                q.grad.copy_(piece.view_as(q))
        self.launched = []
        self.counts = [0] * len(self.plan)
