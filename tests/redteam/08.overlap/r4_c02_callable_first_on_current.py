# expect: pass
# hint: 
import torch
class Pipelined:
    """Batch 0 copied on the current stream; the rest on a side stream with Event.record/Event.wait,
    via .cuda(device, non_blocking=True), record_stream on the compute stream."""
    def __call__(self, batches, compute, device):
        cur = torch.cuda.current_stream(device)
        side = torch.cuda.Stream(device)
        results = []
        x = batches[0].cuda(device, non_blocking=True)  # nothing to overlap with yet
        for i in range(len(batches)):
            nxt = None
            if i + 1 < len(batches):
                ev = torch.cuda.Event()
                with torch.cuda.stream(side):
                    nxt = batches[i + 1].cuda(device, non_blocking=True)
                ev.record(side)
            results.append(compute(x))
            if nxt is not None:
                ev.wait(cur)
                nxt.record_stream(cur)
                x = nxt
        return results
answer = Pipelined()
