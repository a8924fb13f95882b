# expect: fail instead of record_stream, each landed batch is cloned on the compute stream "into its own pool", and the copy-stream tensor is dropped at once: the clone still reads it on the compute stream while the allocator may hand its block to a later copy (a race), and every batch costs an extra device copy and its memory
# hint: record_stream|clone|extra (device )?copy|race|reuse|freed|pool
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            staged = b.to(device, non_blocking=True)
        return staged, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        staged, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        # a copy made on the compute stream belongs to the compute stream's pool,
        # so no tensor crosses streams and record_stream is not needed
        x = staged.clone()
        del staged
        results.append(compute(x))
    return results


answer = pipelined
