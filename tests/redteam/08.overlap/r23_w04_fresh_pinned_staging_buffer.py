# expect: fail every batch is first copied on the host into a freshly allocated pinned buffer (torch.empty(..., pin_memory=True).copy_): pin_memory() by another name, a host copy plus a page-locked allocation per batch that holds the loop though the batches are pinned already
# hint: pin|staging|host copy|page.?lock|empty\(.*pin|already pinned
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        # stage in page-locked memory so the DMA engine can read it directly
        staging = torch.empty(batch.shape, dtype=batch.dtype, pin_memory=True)
        staging.copy_(batch)
        with torch.cuda.stream(copy_stream):
            x = staging.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
