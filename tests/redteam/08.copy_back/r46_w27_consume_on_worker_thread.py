# expect: fail hands each result to consume on a worker thread (ThreadPoolExecutor), not on the calling thread
# hint: thread|calling thread|caller|executor
from concurrent.futures import ThreadPoolExecutor

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def hand_over(j, buf, event):
        event.synchronize()  # this thread waits, not the loop
        consume(j, buf)

    n = len(batches)
    with ThreadPoolExecutor(max_workers=1) as reader:  # one worker: consume stays in order
        ahead = send(batches[0])
        handed = None
        for i in range(n):
            x, copied = ahead
            if i + 1 < n:
                ahead = send(batches[i + 1])
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            if handed is not None:
                handed.result()  # result i - 1 consumed: its buffer is free again
            back_stream.wait_stream(compute_stream)
            buffer = buffers[i % 2]
            with torch.cuda.stream(back_stream):
                y.record_stream(back_stream)
                buffer.copy_(y, non_blocking=True)
                landed = back_stream.record_event()
            handed = reader.submit(hand_over, i, buffer, landed)
        handed.result()


answer = pipelined_to_host
