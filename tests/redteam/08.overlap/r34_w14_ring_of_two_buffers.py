# expect: fail preallocates two device buffers and copies into them in turn without the copy stream waiting for the compute that still reads the buffer (reused before its compute finished)
# hint: reuse|wait_stream|wait|buffer|record_stream
import torch

def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    with torch.cuda.stream(copy_stream):
        bufs = [torch.empty(batches[0].shape, dtype=batches[0].dtype, device=device) for _ in range(2)]
    events = [torch.cuda.Event(), torch.cuda.Event()]

    def send(i):
        with torch.cuda.stream(copy_stream):
            bufs[i % 2].copy_(batches[i], non_blocking=True)
            events[i % 2].record(copy_stream)

    results = []
    send(0)
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(i + 1)
        compute_stream.wait_event(events[i % 2])
        results.append(compute(bufs[i % 2]))
    copy_stream.wait_stream(compute_stream)
    return results


answer = pipelined
