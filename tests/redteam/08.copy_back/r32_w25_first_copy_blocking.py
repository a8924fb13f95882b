# expect: fail copies batch 0 to the device with a blocking .to(device) (no non_blocking=True), so the host waits for that copy
# hint: non_blocking|blocking|wait|host|sync
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = (batches[0].to(device), None)  # the first copy: nothing to overlap with yet
    pending = None  # (index, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        if copied is not None:
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]  # free: result i - 2 was consumed in the previous iteration
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, pbuf, pev = pending
            pev.synchronize()  # covers compute i - 1, not compute i
            consume(j, pbuf)
        pending = (i, buf, landed)
    j, pbuf, pev = pending
    pev.synchronize()
    consume(j, pbuf)


answer = pipelined_to_host
