# expect: fail uses lane.map(...), which ThreadPoolExecutor has but a lane does not promise (CudaLane has only submit)
# hint: submit|map|attribute|lane
import torch
def answer(x, y, lanes):
    it_x = lanes[0].map(torch.matmul, [x], [x])
    it_y = lanes[1].map(torch.matmul, [y], [y])
    return next(iter(it_x)), next(iter(it_y))
