# expect: fail the host waits for each copy's event instead of the GPU
# hint: synchroni[sz]|host wait|the host|sync point|wait_event|wait_stream
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    compute_stream = torch.cuda.current_stream(device)
    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # already queued, so it still overlaps
        copied.synchronize()  # batch i has landed before its compute is queued
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
