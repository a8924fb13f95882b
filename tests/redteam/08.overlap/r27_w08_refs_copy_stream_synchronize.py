# expect: fail keeps references instead of record_stream, then before returning calls copy_stream.synchronize() and drops them: a host wait that covers only the copies, not the computes that read the batches, so their blocks go back to the copy stream's pool while the last computes may still read them
# hint: copy.?stream.*(synchroni|wait)|wait_stream|compute.*(still|may).*(read|run)|wrong stream|record_stream|host wait
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device = []  # references instead of record_stream

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        on_device.append(x)
        return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        results.append(compute(x))
    copy_stream.synchronize()  # every compute is queued: all copies are done, the batches can go
    on_device.clear()
    return results


answer = pipelined
