# expect: pass names imported from torch.cuda under aliases (inside the function, at call time); torch.cuda.Event objects recorded with ev.record(stream) and waited with ev.wait(stream) instead of wait_stream; copy_ into a device tensor made on the copy stream; record_stream
# hint: 
import torch


def pipelined(batches, compute, device):
    from torch.cuda import Event as CudaEvent
    from torch.cuda import Stream as CudaStream
    from torch.cuda import current_stream as stream_now
    from torch.cuda import stream as queue_on

    def send(host, side):
        with queue_on(side):
            dst = torch.empty(host.shape, dtype=host.dtype, device=device)  # in side's pool
            dst.copy_(host, non_blocking=True)
        landed = CudaEvent()
        landed.record(side)  # after the copy, on the side stream
        return dst, landed

    main = stream_now(device)
    side = CudaStream(device)
    out = []
    nxt = send(batches[0], side) if batches else None
    for k in range(len(batches)):
        dst, landed = nxt
        if k + 1 < len(batches):
            nxt = send(batches[k + 1], side)  # overlaps compute k
        landed.wait(main)  # the GPU waits, not the host
        dst.record_stream(main)
        out.append(compute(dst))
    return out


answer = pipelined
