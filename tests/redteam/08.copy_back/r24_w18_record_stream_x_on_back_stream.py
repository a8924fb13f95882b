# expect: fail x.record_stream names the back stream instead of the compute stream that reads x: the allocator may hand each device batch's memory to the next copy in while its compute still reads it
# hint: record_stream\(compute|record_stream.*(compute|x\b|batch|input)|(batch|input|x)('s)? (device )?memory|wrong stream|names? the back stream|freed (while|before)|reus
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

    landed = [None] * n
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            for t in (x, y):  # both crossed streams: mark them for the side stream
                t.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            landed[i] = back_stream.record_event()
        if i:
            landed[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    landed[n - 1].synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
