# expect: fail the 'compute done' event is recorded with torch.cuda.current_stream(device).record_event() inside the back-stream block, so it marks the back stream itself and the copy back never waits for compute i: it may read the result before it is written
# hint: wait|current stream|back stream|copy.?back stream|same stream|race|before the compute|compute (stream|event)
import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    main = torch.cuda.current_stream(device)
    h2d = torch.cuda.Stream(device)
    d2h = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(h2d):
            x = batch.to(device, non_blocking=True)
            return x, h2d.record_event()

    ahead, pending = send(batches[0]), None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        main.wait_event(copied)
        x.record_stream(main)
        y = compute(x)
        if pending is not None:  # compute i is queued: the host may wait for copy back i - 1
            j, buf, landed = pending
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]  # free: its result (i - 2) was consumed last step
        with torch.cuda.stream(d2h):
            computed = torch.cuda.current_stream(device).record_event()  # compute i done
            d2h.wait_event(computed)
            y.record_stream(d2h)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, d2h.record_event())
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
