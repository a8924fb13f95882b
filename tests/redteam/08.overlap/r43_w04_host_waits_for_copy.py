# expect: fail Orders each compute after its copy by making the host wait (copied.synchronize()) instead of the GPU, a sync point in the loop that keeps the host from queuing ahead.
# hint: host|synchronize|wait_event|sync|GPU wait|wait_stream
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        copied.synchronize()  # the host waits for copy i
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
