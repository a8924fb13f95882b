# expect: pass references kept (no record_stream) until the copy back that follows them has landed; the host polls the event with query()
# hint:
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    here = torch.cuda.current_stream(device)
    to_gpu = torch.cuda.Stream(device)
    to_cpu = torch.cuda.Stream(device)
    n = len(batches)

    def upload(k):
        with torch.cuda.stream(to_gpu):
            x = batches[k].to(device, non_blocking=True)
            done = torch.cuda.Event()
            done.record(to_gpu)
        return x, done

    def drain(entry):
        k, buf, event, _keep = entry  # _keep: x and y stay alive until the copy back has landed
        while not event.query():  # the host waits; compute k + 1 is already queued
            pass
        consume(k, buf)

    nxt = upload(0)
    in_flight = None
    for k in range(n):
        x, uploaded = nxt
        if k + 1 < n:
            nxt = upload(k + 1)
        here.wait_event(uploaded)
        y = compute(x)
        computed = torch.cuda.Event()
        computed.record(here)
        to_cpu.wait_event(computed)
        buf = buffers[k % 2]
        with torch.cuda.stream(to_cpu):
            buf.copy_(y, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(to_cpu)
        if in_flight is not None:
            drain(in_flight)
        in_flight = (k, buf, landed, (x, y))
        del x, y
    drain(in_flight)


answer = pipelined_to_host
