# expect: fail copies each result back with `buffer[:] = y` on the back stream: slice assignment is copy_ with non_blocking=False, so the host waits in it for copy back i, which waits for compute i, the newest compute, every step
# hint: non_?blocking|blocking|slice|\[:\]|setitem|host wait|newest|stall
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_in, back = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_in):
            x = b.to(device, non_blocking=True)
        return x, copy_in.record_event()

    pending = None
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        back.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffer[:] = y  # in place, into the caller's pinned buffer
            pending = (i, buffer, back.record_event())
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
