# expect: fail hard-codes the table's two-GPU pattern (i % 2) whenever there is more than one GPU, so a third GPU gets no worker
# hint: (3 GPUs|three|cuda:2|every GPU|busy|all (the )?GPUs|round.?robin)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    n = d2lgpu.num_gpus()
    if n == 0:
        return [d2lgpu.cpu()] * n_workers
    if n == 1:
        return [d2lgpu.gpu(0)] * n_workers
    return [d2lgpu.gpu(i % 2) for i in range(n_workers)]  # as in the table
