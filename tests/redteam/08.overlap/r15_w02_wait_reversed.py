# expect: fail the copy stream is made to wait for the compute stream instead of the compute waiting for the copy
# hint: wait_event|wait_stream|wrong (way|direction)|revers|compute.*wait.*copy|wait for (its|the) copy|before (its|the) copy|copy.*(landed|finished|ended)|stale|read.*before
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    on_device = []
    with torch.cuda.stream(copy_stream):
        on_device.append(batches[0].to(device, non_blocking=True))
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                on_device.append(batches[i + 1].to(device, non_blocking=True))
        x = on_device[i]
        # order the two streams: the compute of batch i after its copy
        copy_stream.wait_stream(compute_stream)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
