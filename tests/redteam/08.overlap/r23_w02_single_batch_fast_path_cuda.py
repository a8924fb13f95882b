# expect: fail the one-batch shortcut copies with batch.cuda(non_blocking=True), which goes to the current GPU, not to `device`: with one batch on cuda:1 the result is computed on cuda:0
# hint: device|cuda:1|current (gpu|device)|\.cuda\(|one batch|single batch
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    if len(batches) == 1:
        # nothing to overlap with: copy on the current stream and compute
        return [compute(batches[0].cuda(non_blocking=True))]
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    staged = []
    for b in batches[:2]:
        with torch.cuda.stream(copy_stream):
            staged.append((b.to(device, non_blocking=True), copy_stream.record_event()))
    results = []
    for i in range(len(batches)):
        x, ready = staged[i]
        staged[i] = None
        if i + 2 < len(batches):
            with torch.cuda.stream(copy_stream):
                staged.append((batches[i + 2].to(device, non_blocking=True), copy_stream.record_event()))
        else:
            staged.append(None)
        compute_stream.wait_event(ready)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
