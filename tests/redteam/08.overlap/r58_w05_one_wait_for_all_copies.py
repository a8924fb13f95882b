# expect: fail queues every copy ahead, then makes the compute stream wait once with wait_stream for the whole copy stream, so the first compute waits for every copy and nothing overlaps (as slow as the serial loop)
# hint: overlap|serial|one after another|wait(s|ed)? for (every|all)|wait_stream|timeline|slow
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    with torch.cuda.stream(copy_stream):
        on_device = [b.to(device, non_blocking=True) for b in batches]
    compute_stream.wait_stream(copy_stream)  # the GPU waits for the copies, not the host
    results = []
    for x in on_device:
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
