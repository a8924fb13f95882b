# expect: fail returns one device per GPU even when there are fewer workers than GPUs (list longer than n_workers)
# hint: length|len|too many|more (devices|entries|items)|n_workers|number of|how many|fewer workers|count|one (device )?per worker|returned \d+ device
# Wrong: reads "keeps every GPU busy" as "every GPU gets a worker": with 4 GPUs, place_workers(2)
# returns 4 devices. The prompt asks for exactly n_workers devices; right when n_workers >= GPUs.
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    n = max(n_workers, len(devices))  # every GPU busy
    return [devices[i % len(devices)] for i in range(n)]


answer = place_workers
