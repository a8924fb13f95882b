# expect: fail flattens and copies back with .view(-1), which raises for a non-contiguous gradient (a transposed or channels_last parameter, whose p.grad follows the parameter's strides); reshape(-1) / view_as on the flat slice would work
# hint: contiguous|view|stride|layout|transpos|channels.?last
# open: every case's gradients are contiguous (nn.Linear's), where .view(-1) works as reshape(-1) does; a non-contiguous gradient (channels_last) is outside the prompt's models, and a right answer's view(-1) would fail there too
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        self.buckets, cur, size = [], [], 0
        for p in reversed(list(model.parameters())):
            cur.append(p)
            size += p.numel() * p.element_size()
            if size >= bucket_bytes:
                self.buckets.append(cur)
                cur, size = [], 0
        if cur:
            self.buckets.append(cur)
        self.where = {id(p): i for i, b in enumerate(self.buckets) for p in b}
        self.ready = [0] * len(self.buckets)
        self.launched = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.view(-1) for q in self.buckets[i]])  # a view: no copy
            flat /= dist.get_world_size()
            self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.launched:
            handle.wait()
            offset = 0
            for q in self.buckets[i]:
                n = q.numel()
                q.grad.view(-1).copy_(flat[offset:offset + n])
                offset += n
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
