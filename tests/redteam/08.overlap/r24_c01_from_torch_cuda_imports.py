# expect: pass r15_c01 with torch.cuda's Stream, stream and current_stream imported by name (from torch.cuda import ...)
# hint: 
from torch.cuda import Stream, current_stream, stream


class Pipeline:
    """Copies on a side stream, one batch ahead; no record_stream: the device batches are
    kept alive until the copy stream (whose pool they belong to) waits for the computes."""

    def __call__(self, batches, compute, device):
        compute_stream = current_stream(device)
        copy_stream = Stream(device)
        on_device = []  # references to every device batch, until the end

        def prefetch(i):
            with stream(copy_stream):
                on_device.append(batches[i].to(device, non_blocking=True))

        prefetch(0)
        results = []
        for i in range(len(batches)):
            # the GPU waits for every copy queued so far, i.e. up to batch i's
            compute_stream.wait_stream(copy_stream)
            if i + 1 < len(batches):
                prefetch(i + 1)  # queued before compute i, so it runs during it
            results.append(compute(on_device[i]))
        # before the references go: later work on the copy stream (its next allocation
        # included) waits for every compute that read these batches
        copy_stream.wait_stream(compute_stream)
        del on_device
        return results


answer = Pipeline()
