# expect: pass waits for each copy back by polling event.query() until True (a sync the prompt allows), one batch late
# hint: 
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)

    def upload(i):
        with torch.cuda.stream(h2d):
            t = batches[i].to(device, non_blocking=True)
            e = torch.cuda.Event()
            e.record(h2d)
        return t, e

    def drain(item):
        idx, buf, ev = item
        while not ev.query():
            pass
        consume(idx, buf)

    nxt = upload(0)
    waiting = None
    for i in range(len(batches)):
        x, ev_in = nxt
        if i + 1 < len(batches):
            nxt = upload(i + 1)
        main.wait_event(ev_in)
        x.record_stream(main)
        y = compute(x)
        done_compute = torch.cuda.Event()
        done_compute.record(main)
        d2h.wait_event(done_compute)
        with torch.cuda.stream(d2h):
            y.record_stream(d2h)
            target = buffers[i % 2]
            target.copy_(y, non_blocking=True)
            ev_out = torch.cuda.Event()
            ev_out.record(d2h)
        if waiting is not None:
            drain(waiting)
        waiting = (i, target, ev_out)
    drain(waiting)


answer = pipelined_to_host
