# expect: fail no record_stream and no references kept: each batch's device tensor (from the copy stream's pool) is freed while its compute on the compute stream may still read it
# hint: record_stream|allocat|reus|freed|references? kept|overwrit
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)  # the wait makes it safe (it does not: memory reuse)
        results.append(compute(x))
    return results
