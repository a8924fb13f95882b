# expect: fail two preallocated device buffers reused in turn; the copy into a buffer does not wait for the compute still reading it
# hint: overwrit|reus|buffer|wait_stream|wait.*compute|memory.*(still|may)|before.*(finish|done)
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    with torch.cuda.stream(copy_stream):
        # double buffering: two device buffers, batch i goes into buffers[i % 2]
        buffers = [torch.empty(batches[0].shape, dtype=batches[0].dtype, device=device) for _ in range(2)]
    events = [None, None]

    def send(i):
        with torch.cuda.stream(copy_stream):
            buffers[i % 2].copy_(batches[i], non_blocking=True)
            events[i % 2] = copy_stream.record_event()

    send(0)
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(i + 1)
        compute_stream.wait_event(events[i % 2])
        results.append(compute(buffers[i % 2]))
    buffers[0].record_stream(compute_stream)
    buffers[1].record_stream(compute_stream)
    return results


answer = pipelined
