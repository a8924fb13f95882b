# expect: pass wait_stream instead of events for the GPU-side order (the compute stream waits before the next copy is queued), batch 0 copied on the current stream, and the host reads result i - 1 before queuing copy back i.
# hint:
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    current = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    back = torch.cuda.Stream(device)
    last = len(batches) - 1
    # batch 0: nothing runs before it to overlap with, so it may go on the current stream
    x = batches[0].to(device, non_blocking=True)
    previous = None  # (index, buffer, event) not consumed yet
    for i in range(last + 1):
        if i > 0:
            current.wait_stream(side)  # covers copy i: copy i + 1 is not queued yet
            x.record_stream(current)
        if i < last:
            with torch.cuda.stream(side):
                x_next = batches[i + 1].to(device, non_blocking=True)
        y = compute(x)
        if previous is not None:  # compute i is queued; the buffer of result i - 1 is read now
            j, buf, ev = previous
            ev.synchronize()
            consume(j, buf)
        back.wait_stream(current)  # covers compute i
        target = buffers[i & 1]
        with torch.cuda.stream(back):
            y.record_stream(back)
            target.copy_(y, non_blocking=True)
        previous = (i, target, back.record_event())
        if i < last:
            x = x_next
    j, buf, ev = previous
    ev.synchronize()
    consume(j, buf)


answer = pipelined_to_host
