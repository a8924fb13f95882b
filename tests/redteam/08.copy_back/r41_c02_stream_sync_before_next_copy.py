# expect: pass wait_stream on the GPU; the host waits with back_stream.synchronize() just before queuing the next copy-back (which covers only the previous one)
# hint: 
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)
    events = []
    xs = []
    for b in batches[:1]:
        with torch.cuda.stream(h2d):
            xs.append(b.to(device, non_blocking=True))
            events.append(h2d.record_event())
    last = None  # index of the result whose copy-back is queued but not consumed
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(h2d):
                xs.append(batches[i + 1].to(device, non_blocking=True))
                events.append(h2d.record_event())
        main.wait_event(events[i])
        x = xs[i]
        xs[i] = None
        x.record_stream(main)
        y = compute(x)
        del x
        if last is not None:
            d2h.synchronize()  # covers copy-back `last` (and compute `last`), not compute i
            consume(last, buffers[last % 2])
        d2h.wait_stream(main)
        with torch.cuda.stream(d2h):
            y.record_stream(d2h)
            buffers[i % 2].copy_(y, non_blocking=True)
        last = i
    d2h.synchronize()
    consume(last, buffers[last % 2])
