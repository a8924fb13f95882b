# expect: fail the copy-back stream waits for the default stream, not the current (compute) stream: wrong under a caller's stream
# hint: wait.*comput|comput.*(before|finish|done|end)|default stream|current stream|before.*comput
import torch


def answer(batches, compute, device, buffers, consume):
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        torch.cuda.current_stream(device).wait_event(copied)
        x.record_stream(torch.cuda.current_stream(device))
        y = compute(x)
        if pending is not None:
            j, buf, done = pending
            done.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_stream(torch.cuda.default_stream(device))  # the GPU waits for compute i
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            done = back_stream.record_event()
        pending = (i, buf, done)
    j, buf, done = pending
    done.synchronize()
    consume(j, buf)
