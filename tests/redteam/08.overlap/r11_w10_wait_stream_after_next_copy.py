# expect: fail compute_stream.wait_stream(copy_stream) is issued after the next batch's copy is queued, so compute i also waits for copy i + 1 and never runs beside it
# hint: wait_stream|next (batch|copy)|i ?\+ ?1|over.?wait|waits? for (all|every|later|the next)|misplaced|too (early|late|much)
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            return batch.to(device, non_blocking=True)

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_stream(copy_stream)  # the GPU waits for the copies, not the host
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
