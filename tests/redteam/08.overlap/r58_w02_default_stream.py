# expect: fail the computes go on torch.cuda.default_stream(device) instead of the caller's current stream, which differs when the call is made inside `with torch.cuda.stream(s)`
# hint: current stream|current_stream|default stream|caller's stream|torch\.cuda\.stream\(
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.default_stream(device)  # "the stream the computes run on"
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        with torch.cuda.stream(compute_stream):
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            results.append(compute(x))
    return results


answer = pipelined
