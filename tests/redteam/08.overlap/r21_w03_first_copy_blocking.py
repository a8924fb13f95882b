# expect: fail batch 0 is copied with a blocking .to(device) on the current stream: the host waits for that copy before anything else is queued (a host sync)
# hint: non_blocking|blocking|host wait|sync|first copy|batch 0
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    # batch 0 may go on the current stream: nothing runs before it to overlap with
    current = batches[0].to(device)
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                nxt = batches[i + 1].to(device, non_blocking=True)
                nxt_ready = copy_stream.record_event()
        results.append(compute(current))
        if i + 1 < len(batches):
            compute_stream.wait_event(nxt_ready)
            nxt.record_stream(compute_stream)
            current = nxt
    return results
