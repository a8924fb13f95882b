# expect: fail calls consume on a worker thread of its own (ThreadPoolExecutor) instead of the thread that called the function
# hint: thread|caller|calling thread|same thread|executor|concurren
# Wrong: "Call it yourself, on the thread that called your function (not on a thread of your own,
# which the check cannot follow)". A reader thread waits for each copy back and consumes it.
from concurrent.futures import ThreadPoolExecutor

import torch


def _land_and_consume(consume, i, buf, ev):
    ev.synchronize()
    consume(i, buf)


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    consumed = {}  # buffer index -> future of the consume that frees it
    with ThreadPoolExecutor(max_workers=1) as reader:  # one worker: consume runs in order
        ahead = send(batches[0])
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            k = i % 2
            if k in consumed:
                consumed.pop(k).result()  # buffer k's previous result has been read
            back_stream.wait_stream(compute_stream)
            with torch.cuda.stream(back_stream):
                y.record_stream(back_stream)
                buffers[k].copy_(y, non_blocking=True)
                ev = back_stream.record_event()
            consumed[k] = reader.submit(_land_and_consume, consume, i, buffers[k], ev)
        for future in consumed.values():
            future.result()
