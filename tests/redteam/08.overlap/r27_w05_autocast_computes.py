# expect: fail runs every compute under torch.autocast("cuda", float16) to make it faster: on a GPU, compute's matrix products then run in half precision, so the results differ from compute(batch) in dtype and value; the simulated GPU (CPU tensors) does not show it
# hint: autocast|half|float16|precision|dtype|amp
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        with torch.autocast(device_type="cuda", dtype=torch.float16):  # tensor cores: faster computes
            results.append(compute(x))
    return results


answer = pipelined
