# expect: pass callable class; torch.cuda.set_stream to switch to the copy stream and back, two copies ahead with one event each, references kept and the copy stream made to wait for the compute stream before returning (no record_stream)
# hint: 
import collections

import torch


class TwoAhead:
    depth = 2

    def __call__(self, batches, compute, device):
        compute_stream = torch.cuda.current_stream(device)
        copy_stream = torch.cuda.Stream(device)
        kept = []  # every device batch, until the end
        queue = collections.deque()
        todo = iter(batches)

        def feed():
            b = next(todo, None)
            if b is None:
                return
            torch.cuda.set_stream(copy_stream)
            try:
                x = b.to(device, non_blocking=True)
                ev = torch.cuda.Event()
                ev.record()  # current stream: copy_stream
            finally:
                torch.cuda.set_stream(compute_stream)
            kept.append(x)
            queue.append((x, ev))

        for _ in range(self.depth):
            feed()
        results = []
        while queue:
            x, ev = queue.popleft()
            feed()  # keeps `depth` copies ahead of the compute
            compute_stream.wait_event(ev)
            results.append(compute(x))
        copy_stream.wait_stream(compute_stream)  # before the references go
        kept.clear()
        return results


answer = TwoAhead()
