# expect: fail takes the default stream as the "side" stream for the copies: when the caller computes on the default stream, copies and computes share one queue and nothing overlaps
# hint: side stream|same stream|one stream|default stream|compute stream|overlap|torch\.cuda\.Stream
import torch
def answer(batches, compute, device):
    cur = torch.cuda.current_stream(device)
    side = torch.cuda.default_stream(device)
    def send(b):
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            return x, side.record_event()
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur.wait_event(ev)
        x.record_stream(cur)
        out.append(compute(x))
    return out
