# expect: pass counts never reset: a bucket is complete whenever its running count is a multiple of its size (each step adds exactly len(bucket) arrivals), handles in a dict keyed by bucket index, cleared in finish
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        self.buckets = [[]]
        filled = 0
        for p in params[::-1]:
            if filled >= bucket_bytes:  # previous bucket reached the cap
                self.buckets.append([])
                filled = 0
            self.buckets[-1].append(p)
            filled += p.nbytes
        self.index = {p: i for i, b in enumerate(self.buckets) for p in b}  # hashed by identity
        self.arrived = [0] * len(self.buckets)
        self.inflight = {}
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.index[p]
        self.arrived[i] += 1
        if self.arrived[i] % len(self.buckets[i]) == 0:  # the bucket's last gradient this step
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.inflight[i] = (flat, dist.all_reduce(flat, async_op=True))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, (flat, work) in self.inflight.items():
            work.wait()
            start = 0
            for q in self.buckets[i]:
                q.grad.copy_(flat[start : start + q.numel()].view_as(q.grad))
                start += q.numel()
        self.inflight.clear()


answer = OverlappedDDP
