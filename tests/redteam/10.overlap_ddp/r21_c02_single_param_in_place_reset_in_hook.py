# expect: pass a one-parameter bucket all-reduces a flat view of p.grad itself (no cat, no copy back needed); counts reset in the hook at launch, handles cleared in finish
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        order = list(model.parameters())[::-1]
        self.buckets, bucket, filled = [], [], 0
        for p in order:
            bucket.append(p)
            filled += p.nbytes
            if filled >= bucket_bytes:
                self.buckets.append(bucket)
                bucket, filled = [], 0
        if bucket:
            self.buckets.append(bucket)
        self.index = {}
        for b, members in enumerate(self.buckets):
            for p in members:
                self.index[id(p)] = b
                p.register_post_accumulate_grad_hook(self._hook)
        self.waiting = [0] * len(self.buckets)
        self.works = []

    @torch.no_grad()
    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        b = self.index[id(p)]
        self.waiting[b] += 1
        members = self.buckets[b]
        if self.waiting[b] < len(members):
            return
        self.waiting[b] = 0  # launched: ready for the next step's gradients
        world = dist.get_world_size()
        if len(members) == 1 and members[0].grad.is_contiguous():
            flat = members[0].grad.view(-1)  # p.grad itself: the sum lands in place
            flat.div_(world)
        else:
            flat = torch.cat([q.grad.reshape(-1) for q in members]).div_(world)
        self.works.append((members, flat, dist.all_reduce(flat, async_op=True)))

    @torch.no_grad()
    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        works, self.works = self.works, []
        for members, flat, work in works:
            work.wait()
            if len(members) == 1 and flat.data_ptr() == members[0].grad.data_ptr():
                continue  # reduced in place
            for q, part in zip(members, flat.split([q.numel() for q in members])):
                q.grad.copy_(part.view_as(q.grad))
        self.waiting = [0] * len(self.buckets)


answer = OverlappedDDP
