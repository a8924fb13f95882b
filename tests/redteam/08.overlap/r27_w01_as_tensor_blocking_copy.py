# expect: fail each batch goes over with torch.as_tensor(b, device=device), which copies with non_blocking=False: the host waits in every copy, so compute i is queued only once copy i + 1 has landed and the host holds the loop
# hint: non_?blocking|blocking|as_tensor|host wait|waited|\.to\(
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = torch.as_tensor(b, device=device)  # as_tensor: no copy where none is needed
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
