# expect: fail skips record_stream for batch 0 ("it was copied before anything ran"), though batch 0 too was allocated on the copy stream: once x is rebound its block may go to batch 2's copy while compute 0 still reads it; shows with 3 or more batches
# hint: record_stream|batch 0|first batch|reuse|race|freed|overwrit
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        if i > 0:  # batch 0 was copied before anything ran: nothing can be reading over it
            x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
