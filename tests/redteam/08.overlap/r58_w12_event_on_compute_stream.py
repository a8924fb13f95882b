# expect: fail the event after each copy is recorded after leaving the `with torch.cuda.stream(copy_stream)` block, so it marks the compute stream, not the copy, and computes may read a batch before it lands
# hint: wait|before (its|the) copy|landed|event|race|stale|copy stream
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()  # right after the copy
        return x, copied

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
