# expect: pass
# hint:
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    if not batches:
        return
    s_compute = torch.cuda.current_stream(device)
    s_in = torch.cuda.Stream(device)
    s_out = torch.cuda.Stream(device)
    free, busy = buffers[0], buffers[1]

    with torch.cuda.stream(s_in):
        x_next = batches[0].to(device, non_blocking=True)
        ev_next = s_in.record_event()

    owed = None  # (index, buffer, event): a result copied back and not yet handed to consume
    i = 0
    while i < len(batches):
        x, ev_in = x_next, ev_next
        if i + 1 < len(batches):
            with torch.cuda.stream(s_in):
                x_next = batches[i + 1].to(device, non_blocking=True)
                ev_next = s_in.record_event()
        s_compute.wait_event(ev_in)
        x.record_stream(s_compute)
        y = compute(x)
        s_out.wait_event(s_compute.record_event())
        with torch.cuda.stream(s_out):
            y.record_stream(s_out)
            free.copy_(y, non_blocking=True)
            ev_out = s_out.record_event()
        if owed is not None:
            j, buf, ev = owed
            ev.synchronize()
            consume(j, buf)
        owed = (i, free, ev_out)
        free, busy = busy, free  # the buffer just consumed is the free one now
        i += 1
    j, buf, ev = owed
    ev.synchronize()
    consume(j, buf)
