# expect: pass buffers allocated on the compute stream, then the copy stream waits for it once; double buffering with events
# hint: 
import torch
def answer(batches, compute, device):
    cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    slots = [torch.empty_like(batches[0], device=device) for _ in range(2)]
    side.wait_stream(cur)
    filled = [torch.cuda.Event(), torch.cuda.Event()]
    freed = [None, None]
    def load(i):
        k = i % 2
        with torch.cuda.stream(side):
            if freed[k] is not None:
                side.wait_event(freed[k])
            slots[k].copy_(batches[i], non_blocking=True)
            filled[k].record()
    out = []
    load(0)
    for i in range(len(batches)):
        if i + 1 < len(batches):
            load(i + 1)
        k = i % 2
        cur.wait_event(filled[k])
        out.append(compute(slots[k]))
        freed[k] = cur.record_event()
    side.wait_stream(cur)
    return out
