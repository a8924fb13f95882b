# expect: fail copies back queued on the compute stream (no third stream): they hold up the next compute
# hint: (copies? (back|to the host)|copy back).{0,60}(compute stream|current stream|same stream)|stream of its own|own stream|third stream|hold.{0,20}up.{0,30}comput
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
    pending = None  # (index, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buffer = buffers[i % 2]
        # same stream as the compute: ordered after it, no cross-stream wait needed
        buffer.copy_(y, non_blocking=True)
        landed = compute_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buffer, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)


answer = pipelined_to_host
