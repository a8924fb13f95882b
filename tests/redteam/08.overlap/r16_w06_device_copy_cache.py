# expect: fail caches device copies by data_ptr across calls; stale batches on a later call
# hint: cache|stale|global|previous call|between calls|data_ptr|state
import torch

_on_device = {}  # (host pointer, device) -> device tensor: a batch seen again is not copied again


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        key = (batch.data_ptr(), str(device))
        if key not in _on_device:
            with torch.cuda.stream(copy_stream):
                _on_device[key] = batch.to(device, non_blocking=True)
        with torch.cuda.stream(copy_stream):
            return _on_device[key], copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
