# expect: pass functools.partial helpers, host waits with back_stream.synchronize() one batch late
# hint: 
from functools import partial

import torch


def _to_device(batch, stream, device):
    with torch.cuda.stream(stream):
        return batch.to(device, non_blocking=True), stream.record_event()


def _to_host(y, buffer, stream, after):
    stream.wait_stream(after)  # the GPU waits for the compute queued so far
    with torch.cuda.stream(stream):
        y.record_stream(stream)
        buffer.copy_(y, non_blocking=True)


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    back_stream = torch.cuda.Stream(device)
    send = partial(_to_device, stream=torch.cuda.Stream(device), device=device)
    receive = partial(_to_host, stream=back_stream, after=compute_stream)
    staged = [send(batches[0])]
    for i, _ in enumerate(batches):
        if i + 1 < len(batches):
            staged.append(send(batches[i + 1]))
        x, copied = staged.pop(0)
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if i > 0:
            # back_stream holds only copy back i - 1 so far, which waited for compute i - 1:
            # this wait does not cover compute i
            back_stream.synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
        receive(y, buffers[i % 2])
    back_stream.synchronize()
    consume(len(batches) - 1, buffers[(len(batches) - 1) % 2])
