# expect: fail hands each (sync, consume) to a one-thread ThreadPoolExecutor so the loop never waits: consume runs off the caller's thread, and the loop copies into a buffer before consume has returned for its previous result
# hint: thread|executor|before consume|returned|buffer (is )?(re)?used|overwrit|free
from concurrent.futures import ThreadPoolExecutor

import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    reader = ThreadPoolExecutor(1)  # the host's reads run beside the loop

    def read(j, buf, landed):
        landed.synchronize()
        consume(j, buf)

    ahead, pending = send(batches[0]), None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:  # compute i is queued: now wait for copy back i - 1
            reader.submit(read, *pending)
        buf = buffers[i % 2]  # its last result (i - 2) was consumed at step i - 1
        back_stream.wait_stream(compute_stream)  # the GPU waits for compute i
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            pending = (i, buf, back_stream.record_event())
    reader.submit(read, *pending)
    reader.shutdown(wait=True)
