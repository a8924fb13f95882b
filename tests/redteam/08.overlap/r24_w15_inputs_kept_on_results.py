# expect: fail each device batch is kept alive as an attribute of its result instead of record_stream or a wait before returning: every batch's device memory stays held for as long as the caller keeps the results, and when the caller drops a result its batch is freed with no wait for the compute that reads it
# hint: attribute|kept alive|held|memory (is )?(kept|held)|as long as|record_stream|wait_stream|references
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ev)
        y = compute(x)
        y._pipeline_input = x  # the input lives as long as its result: never freed under it
        results.append(y)
    return results


answer = pipelined
