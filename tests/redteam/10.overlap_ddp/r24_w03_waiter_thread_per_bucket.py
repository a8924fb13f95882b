# expect: fail each hook starts a thread that waits on the handle and copies the average back during backward; finish() only joins the threads, so no handle is waited on in finish()
# hint: thread|join|wait(ed|s)? (on )?(in|inside|outside|during|from)|not (wait|waited) (on )?in finish|finish\(\) (never|does not) wait
import threading

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
        self.threads = []
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._hook)

    def _land(self, i, flat, handle):
        handle.wait()  # off autograd's thread, so backward goes on meanwhile
        for q, part in zip(self.buckets[i], flat.split([q.numel() for q in self.buckets[i]])):
            q.grad.copy_(part.view_as(q.grad))

    def _hook(self, p):
        """Autograd calls this once p.grad holds this step's gradient."""
        i = self.where[id(p)]
        self.ready[i] += 1
        if self.ready[i] == len(self.buckets[i]):
            flat = torch.cat([q.grad.reshape(-1) for q in self.buckets[i]])
            flat /= dist.get_world_size()
            handle = dist.all_reduce(flat, async_op=True)
            t = threading.Thread(target=self._land, args=(i, flat, handle))
            t.start()
            self.threads.append(t)

    def finish(self):
        """Wait for every all-reduce; leave the averages in p.grad; ready for the next step."""
        for t in self.threads:
            t.join()
        self.threads = []
        self.ready = [0] * len(self.buckets)


answer = OverlappedDDP
