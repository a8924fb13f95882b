# expect: pass back stream synchronized (covers result i-1 only) before queueing copy back i
# hint: 
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    n = len(batches)

    # batch 0's copy on the current stream: nothing before it to overlap with
    x_next = batches[0].to(device, non_blocking=True)
    copied_next = None
    for i in range(n):
        x, copied = x_next, copied_next
        if i + 1 < n:
            with torch.cuda.stream(copy_stream):
                x_next = batches[i + 1].to(device, non_blocking=True)
                copied_next = torch.cuda.current_stream(device).record_event()
        if copied is not None:
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
        y = compute(x)
        # compute i is queued: now the host may wait for the copy back of result i - 1
        if i > 0:
            back_stream.synchronize()  # only copy back i - 1 is queued there
            consume(i - 1, buffers[(i - 1) % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            buffers[i % 2].copy_(y, non_blocking=True)
        y.record_stream(back_stream)
    back_stream.synchronize()
    consume(n - 1, buffers[(n - 1) % 2])


answer = pipelined_to_host
