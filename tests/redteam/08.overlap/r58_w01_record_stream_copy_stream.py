# expect: fail record_stream is given the copy stream (where the tensor was made) instead of the compute stream that reads it, so the allocator may reuse a batch's memory under a running compute
# hint: record_stream|freed|reuse|allocator|compute stream may still
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            x.record_stream(copy_stream)  # "mark it as used on the side stream"
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results


answer = pipelined
