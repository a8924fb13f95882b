# expect: fail the last batch is computed without waiting for its copy's event ("nothing else is queued, so it has landed"): compute n - 1 may read memory its copy has not filled
# hint: wait|last batch|event|race|landed|before the copy
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches) - 1):
        x, copied = ahead
        ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    x, _ = ahead  # the last copy: queued long ago, no copy after it to overlap
    x.record_stream(compute_stream)
    results.append(compute(x))
    return results
