# expect: fail compute i waits for the whole copy stream after copy i + 1 is queued: it waits for the next copy too, so nothing overlaps
# hint: overlap|serial|next copy|copy of batch|wait.*(next|later|i ?\+ ?1)|faster|timeline
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        x.record_stream(compute_stream)
        return x

    results, x_next = [], send(batches[0])
    for i in range(len(batches)):
        x = x_next
        if i + 1 < len(batches):
            x_next = send(batches[i + 1])  # queued first, to run during compute i ...
        compute_stream.wait_stream(copy_stream)  # ... but this waits for it as well
        results.append(compute(x))
    return results


answer = pipelined
