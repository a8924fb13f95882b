# expect: pass .cuda(device, non_blocking=True) copies, Event.wait(stream) for the GPU-side waits, the host waits with back_stream.synchronize() before queuing the next copy back
# hint:
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    n = len(batches)

    def send(i):
        with torch.cuda.stream(copy_stream):
            x = batches[i].cuda(device, non_blocking=True)
        event = torch.cuda.Event()
        event.record(copy_stream)
        return x, event

    waiting = None  # the result whose copy back is the last thing queued on back_stream
    ahead = send(0)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(i + 1)
        copied.wait(compute_stream)  # the GPU waits, the host does not
        x.record_stream(compute_stream)
        y = compute(x)
        done = torch.cuda.Event()
        done.record(compute_stream)
        if waiting is not None:
            # back_stream holds only copies back, the newest being result i - 1's, which
            # waited for compute i - 1 only: compute i stays queued while the host waits
            back_stream.synchronize()
            consume(*waiting)
        done.wait(back_stream)
        y.record_stream(back_stream)
        buf = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            buf.copy_(y, non_blocking=True)
        waiting = (i, buf)
    back_stream.synchronize()
    consume(*waiting)


answer = pipelined_to_host
