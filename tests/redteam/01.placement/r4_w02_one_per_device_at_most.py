# expect: fail returns min(n_workers, devices) devices: one per GPU, not one per worker, when workers outnumber GPUs
# hint: n_workers|one per worker|length|len|how many|number of|returned \d+
import d2lgpu
def answer(n_workers):
    devs = d2lgpu.try_all_gpus()
    return [devs[i] for i in range(min(n_workers, len(devs)))]
