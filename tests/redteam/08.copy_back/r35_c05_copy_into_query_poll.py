# expect: pass Copies in with copy_ into tensors made with device=, the host learns that a copy back landed by polling event.query() until True, and the loop is written as a producer step plus a drain step.
# hint:
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    count = len(batches)
    run_on = torch.cuda.current_stream(device)
    load_s = torch.cuda.Stream(device)
    store_s = torch.cuda.Stream(device)

    def load(batch):
        with torch.cuda.stream(load_s):
            dst = torch.empty(batch.shape, dtype=batch.dtype, device=device)
            dst.copy_(batch, non_blocking=True)
            return dst, load_s.record_event()

    def wait_landed(event):
        while not event.query():  # a query that returned True: the copy has landed
            pass

    queued = []  # (index, buffer, event) in order; at most two, one per buffer
    staged = load(batches[0]) if count else None
    for i in range(count):
        dev, loaded = staged
        if i + 1 < count:
            staged = load(batches[i + 1])
        run_on.wait_event(loaded)
        dev.record_stream(run_on)
        out = compute(dev)
        store_s.wait_event(run_on.record_event())
        slot = buffers[i % len(buffers)]
        with torch.cuda.stream(store_s):
            out.record_stream(store_s)
            slot.copy_(out, non_blocking=True)
            queued.append((i, slot, store_s.record_event()))
        while len(queued) > 1:
            j, buf, ev = queued.pop(0)
            wait_landed(ev)
            consume(j, buf)
    for j, buf, ev in queued:
        wait_landed(ev)
        consume(j, buf)


answer = pipelined_to_host
