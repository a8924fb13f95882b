# expect: fail the host waits with back_stream.synchronize(), which also covers the copy back of the newest result, and so the newest compute
# hint: newest compute|covers|stream\.synchroni[sz]e|whole stream|too (much|far)|event.{0,30}(instead|rather)|idle|stall|one batch late
# Wrong: "no wait that covers the newest compute queued while batches remain": the copy back of
# result i, queued just before, waits for compute i, so the GPU is left without a next compute.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
        if i > 0:
            back_stream.synchronize()  # "result i - 1's copy back has landed"
            consume(i - 1, buffers[(i - 1) % 2])
    back_stream.synchronize()
    consume(n - 1, buffers[(n - 1) % 2])
