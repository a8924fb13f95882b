# expect: fail each compute is queued from a worker thread, whose current stream is that thread's default stream, not the caller's current stream: the wait_event queued on the caller's stream orders nothing for it, and under `with torch.cuda.stream(s)` the computes run on the wrong stream without waiting for their copies
# hint: thread|current stream is (per|thread)|thread.local|default stream|wrong stream|caller'?s (current )?stream|not the current stream
from concurrent.futures import ThreadPoolExecutor

import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    # a launcher thread queues the kernels, so this thread is free to queue the copies
    with ThreadPoolExecutor(max_workers=1) as launcher:
        ahead = send(batches[0])
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            results.append(launcher.submit(compute, x).result())  # launch only: no GPU wait
    return results


answer = pipelined
