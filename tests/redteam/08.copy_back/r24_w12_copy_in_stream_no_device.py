# expect: fail the copy-in stream is made with torch.cuda.Stream() and no device: for a run on cuda:1 it is a stream of the current GPU, so the copies to cuda:1 are not queued on a side stream of that GPU and the compute's wait_event names another GPU's event
# hint: Stream\(\)|without (the|a) device|current GPU|cuda:1|other (GPU|device)|wrong (GPU|device)|name the device|copy.in stream
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream()  # a side stream for the copies in
    back_stream = torch.cuda.Stream(device)  # and one, on the results' GPU, for the copies back
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    landed = [None] * n
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            landed[i] = back_stream.record_event()
        if i:
            landed[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    landed[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
