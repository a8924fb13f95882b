# expect: fail copies with x.copy_(batch) into a device tensor without non_blocking=True: a blocking copy, so the host waits for each copy in the loop
# hint: non.?blocking|blocking|copy_|host (waits?|waited|stuck|held)
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = torch.empty(batch.shape, dtype=batch.dtype, device=device)
            x.copy_(batch)  # on the side stream, so it should not hold anything up
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
