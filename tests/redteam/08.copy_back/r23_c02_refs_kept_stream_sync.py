# expect: pass no record_stream at all: x and y kept referenced until their streams are done (y until its copy back is consumed, all x until a final h2d.wait_stream); the host waits with d2h.synchronize() before copy back i is queued, so it covers copy back i - 1 only
# hint:
import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    main = torch.cuda.current_stream(device)
    h2d, d2h = torch.cuda.Stream(device), torch.cuda.Stream(device)
    inputs = []  # every x, so h2d's pool cannot hand its block out under a compute
    in_flight = None  # (i, buffer, y): y referenced until its copy back has landed

    def load(k):
        with torch.cuda.stream(h2d):
            inputs.append(batches[k].to(device, non_blocking=True))
            return h2d.record_event()

    ready = load(0)
    for i in range(len(batches)):
        ready_next = load(i + 1) if i + 1 < len(batches) else None
        main.wait_event(ready)
        y = compute(inputs[i])
        if in_flight is not None:
            d2h.synchronize()  # holds copy back i - 1 only: copy back i is not queued yet
            consume(in_flight[0], in_flight[1])
        buf = buffers[i % 2]
        d2h.wait_stream(main)
        with torch.cuda.stream(d2h):
            buf.copy_(y, non_blocking=True)
        in_flight, ready = (i, buf, y), ready_next
    d2h.synchronize()
    consume(in_flight[0], in_flight[1])
    in_flight = None
    h2d.wait_stream(main)  # the inputs may be reused only after the computes that read them
