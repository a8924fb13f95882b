# expect: fail allocates a third pinned buffer with torch.empty_like(..., pin_memory=True) to triple-buffer the results: the two buffers given are all the pinned memory there is, and no pin_memory() call shows it
# hint: third buffer|extra (pinned )?buffer|new pinned|more pinned|pin_memory=True|empty_like|only (the )?two buffers|all the pinned memory|allocat
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)
    # one spare, so a copy back never has to wait for the host to finish with a buffer
    ring = list(buffers) + [torch.empty_like(buffers[0], pin_memory=True)]

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
            ring[i % 3].copy_(y, non_blocking=True)
            landed[i] = back_stream.record_event()
        if i:
            landed[i - 1].synchronize()
            consume(i - 1, ring[(i - 1) % 3])
    landed[n - 1].synchronize()
    consume(n - 1, ring[(n - 1) % 3])
