# expect: fail Makes the compute stream wait_stream(copy_stream) after batch i + 1's copy is queued, so compute i waits for copy i + 1 as well: right values, but no compute runs beside the next copy.
# hint: wait|wait_stream|overlap|next copy|i \+ 1|timeline|serial
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True)

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_stream(copy_stream)  # covers copy i + 1 too
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
