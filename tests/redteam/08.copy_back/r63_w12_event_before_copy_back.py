# expect: fail records the copy-back event before queuing the copy into the buffer, so the host's event sync does not cover the copy and consume reads the buffer before it has landed
# hint: (event|record).*(before|after) (the )?copy|landed|before (a )?sync|not (yet )?(landed|covered)|covers? the copy|host read|too early|stale
# Wrong: the event must be recorded after the copy (section 8.8); recorded before it, the
# sync waits only for the compute, and consume reads a buffer the copy engine has not filled yet.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            landed = torch.cuda.Event()
            landed.record()  # marks the point before the copy: the wait for compute i
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
        pending = (i, landed)
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
