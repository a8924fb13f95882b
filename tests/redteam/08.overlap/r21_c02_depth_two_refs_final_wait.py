# expect: pass copies queued two batches ahead, references kept in a dict and the copy stream made to wait for the compute stream once, before returning
# hint: 
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    held, ready = {}, {}

    def queue_copy(j):
        if j < len(batches):
            with torch.cuda.stream(copy_stream):
                held[j] = batches[j].to(device, non_blocking=True)
                ready[j] = copy_stream.record_event()

    queue_copy(0)
    queue_copy(1)
    out = []
    for i in range(len(batches)):
        queue_copy(i + 2)
        compute_stream.wait_event(ready.pop(i))
        out.append(compute(held[i]))
    # held's tensors belong to copy_stream's pool: free them only after the computes
    copy_stream.wait_stream(compute_stream)
    return out
