# expect: fail the computes run on a fresh stream of the function's own, not the caller's current stream: the caller's stream is never ordered after the results it gets back
# hint: current stream|caller|own stream|new stream|compute stream|wait_stream
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    copy_stream = torch.cuda.Stream(device)
    compute_stream = torch.cuda.Stream(device)  # two side streams: copies and computes

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        with torch.cuda.stream(compute_stream):
            results.append(compute(x))
    return results
