# expect: fail the host waits for copy back i - 1 before it queues compute i, so the GPU has no next compute queued while the host waits
# hint: next (batch'?s )?compute|compute (i|\d+|of the next batch) (was )?not (yet )?queued|before (it )?queu|queue.*before.*wait|gpu (went |sat )?idle|keep the gpu busy|stall
# Wrong: "whenever the host waits, the GPU must have the next batch's compute queued". Here the
# wait for result i - 1 comes before compute i is queued, so every wait drains the compute queue.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        if pending is not None:  # free a buffer first, then compute: looks tidy, stalls the GPU
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            pending = (i, back_stream.record_event())
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
