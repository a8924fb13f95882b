# expect: fail each batch is cloned on the host before its copy: the clone is pageable memory, so the copy holds the host and the overlap is lost
# hint: pageable|pinned|clone|as it is|host.{0,40}(wait|copy|held|stuck)|non.?blocking
# Wrong: values are right, but clone() makes new, pageable host memory (and copies every byte on
# the host); the prompt says to send each batch as it is, since it is pinned already.
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        b = b.detach().clone()  # don't alias the caller's batch
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
