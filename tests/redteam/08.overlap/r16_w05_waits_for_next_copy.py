# expect: fail wait_stream after queueing the next copy: compute i waits for copy i + 1 too
# hint: own copy|next copy|copy i ?\+ ?1|batch i ?\+ ?1|wait_stream|wait_event|waited for|waits for
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    with torch.cuda.stream(copy_stream):
        ahead = batches[0].to(device, non_blocking=True)
    results = []
    for i in range(len(batches)):
        x = ahead
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                ahead = batches[i + 1].to(device, non_blocking=True)  # prefetch
        compute_stream.wait_stream(copy_stream)  # the GPU waits for the copies; the host does not
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
