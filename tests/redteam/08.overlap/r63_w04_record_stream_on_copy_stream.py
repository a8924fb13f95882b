# expect: fail record_stream is given the copy stream (where x was allocated) instead of the compute stream, so the freed memory is not protected
# hint: record_stream|compute stream|freed|allocator|reuse|reference
# WRONG: x.record_stream(copy_stream) says nothing the allocator did not know; x is dropped when the
# loop rebinds it, while its compute on the current stream may still read it.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            x.record_stream(copy_stream)  # "register" the tensor with its stream
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results
