# expect: pass plans buckets as (start, stop) slices of the reversed list, a per-instance counter dict, handles in a deque
# hint:
# name: OverlappedDDP
from collections import deque

import torch
import torch.distributed as dist


class OverlappedDDP:
    def __init__(self, model, bucket_bytes):
        rev = [p for p in model.parameters()][::-1]
        self.rev = rev
        self.spans = []
        start, acc = 0, 0
        for j, p in enumerate(rev):
            acc += p.numel() * p.element_size()
            if acc >= bucket_bytes or j == len(rev) - 1:
                self.spans.append((start, j + 1))
                start, acc = j + 1, 0
        self.span_of = {}
        for s, (a, b) in enumerate(self.spans):
            for p in rev[a:b]:
                self.span_of[id(p)] = s
        self.remaining = {s: b - a for s, (a, b) in enumerate(self.spans)}
        self.todo = deque()
        for p in rev:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        s = self.span_of[id(p)]
        self.remaining[s] -= 1
        if self.remaining[s] == 0:
            a, b = self.spans[s]
            flat = torch.cat([q.grad.reshape(-1) for q in self.rev[a:b]])
            flat.mul_(1.0 / dist.get_world_size())
            self.todo.append((s, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        while self.todo:
            s, flat, work = self.todo.popleft()
            work.wait()
            a, b = self.spans[s]
            pos = 0
            for q in self.rev[a:b]:
                q.grad.copy_(flat.narrow(0, pos, q.numel()).view_as(q))
                pos += q.numel()
        self.remaining = {s: b - a for s, (a, b) in enumerate(self.spans)}
