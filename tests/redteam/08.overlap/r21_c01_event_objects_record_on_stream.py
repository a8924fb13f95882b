# expect: pass explicit torch.cuda.Event objects recorded with event.record(copy_stream) and waited with event.wait(compute_stream), a while loop
# hint: 
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    n = len(batches)
    staged = [None] * n
    events = [torch.cuda.Event() for _ in range(n)]

    def stage(j):
        with torch.cuda.stream(copy_stream):
            staged[j] = batches[j].to(device, non_blocking=True)
        events[j].record(copy_stream)

    results = []
    stage(0)
    i = 0
    while i < n:
        if i + 1 < n:
            stage(i + 1)  # queued before compute i: the copy engine has it meanwhile
        events[i].wait(compute_stream)
        x = staged[i]
        staged[i] = None
        x.record_stream(compute_stream)
        results.append(compute(x))
        i += 1
    return results
