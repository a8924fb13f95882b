# expect: pass
# hint:
# RIGHT: batch 0 copied on the current stream (allowed), later batches copied with copy_ into a
# tensor made with device= on the side stream, in the batch's own dtype; event.wait(stream) form.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    x = batches[0].to(device, non_blocking=True)  # nothing runs before it to overlap with
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            b = batches[i + 1]
            with torch.cuda.stream(copy_stream):
                nxt = torch.empty(b.shape, dtype=b.dtype, device=device)
                nxt.copy_(b, non_blocking=True)
                ready = torch.cuda.Event()
                ready.record()  # on copy_stream, the current stream here
        results.append(compute(x))
        if i + 1 < len(batches):
            ready.wait(compute_stream)  # compute i + 1 waits on the GPU for its copy
            nxt.record_stream(compute_stream)
            x = nxt
    return results
