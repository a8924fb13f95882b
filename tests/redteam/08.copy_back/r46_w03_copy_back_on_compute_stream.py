# expect: fail the copy back is queued on the compute stream (no stream of its own), holding up the next compute
# hint: compute stream|stream of its own|own stream|side stream|hold|back stream|d2h|to the host.*stream
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        buffer.copy_(y, non_blocking=True)  # same stream as the compute: ordered after it for free
        landed = compute_stream.record_event()
        if pending is not None:
            j, buf, event = pending
            event.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, event = pending
    event.synchronize()
    consume(j, buf)


answer = pipelined_to_host
