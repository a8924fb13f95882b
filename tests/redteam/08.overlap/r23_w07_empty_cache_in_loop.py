# expect: fail torch.cuda.empty_cache() after each compute "to keep device memory low": it releases cached blocks with cudaFree, which synchronizes the device, so the host waits for the queued work every batch and the allocator must cudaMalloc again
# hint: empty_cache|cudaFree|synchroni|cach|allocator|host wait
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
        x.record_stream(compute_stream)
        results.append(compute(x))
        del x
        torch.cuda.empty_cache()  # hand the finished batch's block back, big batches
    return results
