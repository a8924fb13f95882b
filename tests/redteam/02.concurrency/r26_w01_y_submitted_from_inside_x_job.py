# expect: fail lane 0's job computes x @ x and only then submits y @ y to lane 1 (from inside the job, "so the caller never blocks"): y is launched after x's product is done on thread lanes, and on one GPU lane 1's wait_stream orders it after lane 0's stream (the current stream inside the job): one after the other
# hint: inside|within|from (the |lane 0'?s? )?job|nested|after x|x first|one after|serial|sequen|launch(ed)? (y )?(only )?after|current stream|wait_stream
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""

    def square_x_and_hand_off_y():
        xx = torch.matmul(x, x)
        return xx, lanes[1].submit(torch.matmul, y, y)  # y goes to its own lane from here

    xx, y_future = lanes[0].submit(square_x_and_hand_off_y).result()
    return xx, y_future.result()


answer = run_concurrently
