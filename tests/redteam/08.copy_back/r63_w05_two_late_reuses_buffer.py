# expect: fail reads results two batches late with only two buffers, so buffer i % 2 is copied into before result i - 2 was consumed
# hint: buffer.*(before|still|not yet|reus|overwrit|landed)|(reus|overwrit).*buffer|consumed?|two (batches )?late|one batch late|free for another
# Wrong: "A buffer is free for another result once consume has returned for it, not before". To
# keep the GPU "more busy" this waits two batches late, so copy back i lands in the buffer holding
# result i - 2 before consume(i - 2) is called.
from collections import deque

import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    in_flight = deque()
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            in_flight.append((i, back_stream.record_event()))
        if len(in_flight) > 2:  # two copies back in flight before the host waits
            j, ev = in_flight.popleft()
            ev.synchronize()
            consume(j, buffers[j % 2])
    while in_flight:
        j, ev = in_flight.popleft()
        ev.synchronize()
        consume(j, buffers[j % 2])
