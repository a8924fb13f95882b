# expect: fail alternates between the first two devices only, leaving GPUs 2 and up idle
# hint: idle|unused|every gpu|all (the )?gpus|busy|cuda:[2-9]|three|3 gpus|more than two|round.?robin
# Wrong: generalised from the table's two-GPU row; on three or more GPUs only cuda:0 and cuda:1 get
# workers, so the code does not keep every GPU busy.
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    if len(devices) == 1:
        return [devices[0]] * n_workers
    return [devices[i % 2] for i in range(n_workers)]


answer = place_workers
