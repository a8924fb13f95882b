# expect: fail keeps references, but the final wait is reversed: compute_stream.wait_stream(copy_stream) instead of copy_stream.wait_stream(compute_stream) before returning
# hint: wait_stream|record_stream|direction
import torch

def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    kept, results = [], []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ev)
        kept.append(x)
        results.append(compute(x))
    compute_stream.wait_stream(copy_stream)  # make sure everything is ordered before returning
    return results


answer = pipelined
