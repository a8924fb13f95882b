# expect: fail the last batch copied again on the current stream; its prefetched copy wasted
# hint: last batch|extra copy|copied twice|twice|current stream|compute stream|side stream|[0-9] times|copy it once
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
    for nxt in batches[1:]:
        x, copied = ahead
        ahead = send(nxt)  # the next batch's copy runs during this compute
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    # the last batch: nothing is left to overlap with, so the plain path will do
    results.append(compute(batches[-1].to(device, non_blocking=True)))
    return results
