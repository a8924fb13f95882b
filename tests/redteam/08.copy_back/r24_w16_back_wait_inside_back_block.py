# expect: fail back_stream.wait_stream(torch.cuda.current_stream(device)) is called inside `with torch.cuda.stream(back_stream)`, where the current stream is the back stream itself: the back stream waits for nothing, and each copy back may read its result before the compute has written it
# hint: inside the (with|back)|current_stream.*(inside|within)|waits? for itself|itself|back stream (waits|itself)|wrong stream|wait(s|ing)? for (the )?compute|before the compute|compute stream
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    def send_back(i, y):
        with torch.cuda.stream(back_stream):
            # the stream the compute ran on must be done before we read y
            back_stream.wait_stream(torch.cuda.current_stream(device))
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            return back_stream.record_event()

    landed = [None] * n
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        landed[i] = send_back(i, compute(x))
        if i:
            landed[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    landed[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
