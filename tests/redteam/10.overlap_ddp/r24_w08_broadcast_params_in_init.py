# expect: pass (written as wrong, judged right: DDP's constructor broadcasts the parameters, and the checker leaves collectives before the steps out, as test_collectives_before_the_steps_are_left_out_and_a_gradient_set_to_none_is_named holds) copies DDP's constructor and broadcasts every parameter from rank 0 in __init__: collectives besides the buckets' all-reduces (harmless to the values when the ranks start equal, but something other than the buckets is sent)
# hint: 
import torch
import torch.distributed as dist


class OverlappedDDP:
    """Average gradients over the ranks during backward: hooks, buckets, async all-reduces."""

    def __init__(self, model, bucket_bytes):
        params = list(model.parameters())
        with torch.no_grad():  # as DDP does: every rank starts from rank 0's weights
            for p in params:
                dist.broadcast(p, src=0)
        self.buckets, cur, size = [], [], 0
        for p in reversed(params):
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
        for p in params:
            p.register_post_accumulate_grad_hook(self._hook)

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            self.launched.append((i, flat, dist.all_reduce(flat, async_op=True)))

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for i, flat, handle in self.launched:
            handle.wait()
            for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
                q.grad.copy_(part.view_as(q.grad))
        self.launched = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
