# Sum of squares, written the natural Warp way: one atomic_add per element.
# kern recognises the same-address atomic whose result is unused and
# compiles it as a hierarchical reduction (see LANGUAGE.md).
import warp as wp


@wp.kernel
def sum_of_squares(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])


if __name__ == "__main__":
    import numpy as np

    n = 1000
    x = wp.array(np.arange(n, dtype=np.float64), dtype=wp.float64)
    out = wp.zeros(1, dtype=wp.float64)
    wp.launch(sum_of_squares, dim=n, inputs=[x, out])
    print(out.numpy()[0])
