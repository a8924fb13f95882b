# expect: pass device buffers from torch.empty_like(batch, device=device) filled by copy_ on the side stream, no record_stream: every device batch kept referenced and the side stream made to wait for the compute stream before returning
# hint:
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, landed = [], []

    def prefetch(k):
        with torch.cuda.stream(copy_stream):
            buf = torch.empty_like(batches[k], device=device)  # same shape and dtype
            buf.copy_(batches[k], non_blocking=True)
            landed.append(copy_stream.record_event())
        on_device.append(buf)

    prefetch(0)
    results = []
    for k in range(len(batches)):
        if k + 1 < len(batches):
            prefetch(k + 1)
        compute_stream.wait_event(landed[k])
        results.append(compute(on_device[k]))
    # on_device holds every buffer until here; from now on the copy stream's pool may reuse
    # them only after the computes queued so far
    copy_stream.wait_stream(compute_stream)
    return results
