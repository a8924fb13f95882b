# expect: fail Event.wait() (a GPU-side wait on the current stream) where the host must Event.synchronize(): consume reads before the copy lands
# hint: land|early|synchron|before.*cop|host.*(read|know)|not.*(sync|know)
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
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
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buf, done = pending
            done.wait()  # wait for the copy back of result j
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            done = back_stream.record_event()
        pending = (i, buf, done)
    j, buf, done = pending
    done.wait()
    consume(j, buf)
