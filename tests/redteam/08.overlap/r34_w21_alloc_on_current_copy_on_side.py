# expect: fail allocates each device buffer on the current (compute) stream, then copy_ into it on the side stream: a freed buffer's memory is reused at once by the next allocation on the compute stream while the side-stream copy into it is not ordered after the compute still reading it
# hint: alloc|stream|pool|wait_stream|record_stream|reuse|overwrit
import torch

def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        x = torch.empty(b.shape, dtype=b.dtype, device=device)  # made on the current stream
        with torch.cuda.stream(copy_stream):
            x.copy_(b, non_blocking=True)
            ev = copy_stream.record_event()
        return x, ev

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
