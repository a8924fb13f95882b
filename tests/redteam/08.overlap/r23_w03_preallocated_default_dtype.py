# expect: fail each device buffer is made with torch.empty(batch.shape, device=device), i.e. in the default dtype float32, and copy_ casts into it: float64 batches lose precision (and the copy becomes a cast)
# hint: dtype|float64|float32|double|precision|empty\(|cast
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def stage(batch):
        with torch.cuda.stream(copy_stream):
            # room on the device, allocated from the copy stream's pool, then filled
            x = torch.empty(batch.shape, device=device)
            x.copy_(batch, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record(copy_stream)
        return x, ev

    results = []
    nxt = stage(batches[0])
    for i in range(len(batches)):
        x, ev = nxt
        if i + 1 < len(batches):
            nxt = stage(batches[i + 1])
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
