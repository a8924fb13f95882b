# expect: pass
# hint:
# Right: references kept instead of record_stream (the prompt allows either), and the host learns
# that a copy back has landed from an event's query() returning True (listed as a sync in the prompt).
import time

import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    keep = []  # every device tensor, alive until the streams that use it are done

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record(copy_stream)
        keep.append(x)
        return x, ev

    def wait_landed(ev):
        while not ev.query():
            time.sleep(0)

    nxt = send(batches[0])
    prev = None
    for i in range(len(batches)):
        x, ev = nxt
        if i + 1 < len(batches):
            nxt = send(batches[i + 1])
        ev.wait(compute_stream)
        y = compute(x)
        keep.append(y)
        if prev is not None:
            wait_landed(prev[1])
            consume(prev[0], buffers[prev[0] % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            buffers[i % 2].copy_(y, non_blocking=True)
            landed = torch.cuda.Event()
            landed.record(back_stream)
        prev = (i, landed)
    wait_landed(prev[1])
    consume(prev[0], buffers[prev[0] % 2])
    # every stream that used the kept tensors is done: the last copy back waited for the last compute
    copy_stream.wait_stream(compute_stream)
    keep.clear()
