# expect: fail the two landed events are made once and kept on the function (answer.landed) for every later call: an event is bound to the device of its first record, so a later call with another device (cuda:1) records it on a foreign stream, and calls share state
# hint: cache|between calls|state|function attribute|reuse|device|cuda:1|global
import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    if not hasattr(answer, "landed"):
        answer.landed = [torch.cuda.Event(), torch.cuda.Event()]
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
        d2h.wait_stream(main)  # the copy back waits for compute i on the GPU
        with torch.cuda.stream(d2h):
            y.record_stream(d2h)
            buf.copy_(y, non_blocking=True)
            landed = answer.landed[i % 2]  # one event per buffer, made once
            landed.record(d2h)
            pending = (i, buf, landed)
    j, buf, landed = pending
    landed.synchronize()
    consume(j, buf)
