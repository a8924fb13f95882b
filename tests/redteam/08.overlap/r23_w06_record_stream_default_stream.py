# expect: fail x.record_stream(torch.cuda.default_stream(device)) names the default stream, not the stream the computes run on: called inside `with torch.cuda.stream(s)` the compute stream s is never recorded, so x's memory may be reused while its compute still reads it
# hint: record_stream|default stream|current stream|compute stream|caller|freed|reuse
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
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
        compute_stream.wait_event(copied)
        # x was allocated on the side stream: tell the allocator the main stream uses it
        x.record_stream(torch.cuda.default_stream(device))
        results.append(compute(x))
    return results
