"""Runs a fluid_checkpoint example's training loop through graphs on any
device, as the example itself does only on CUDA.

The example captures forward(), backward() and tape.zero() with
wp.ScopedCapture and replays them with wp.capture_launch when
``wp.get_device().is_cuda``; on the CPU it calls them directly.  This loads
the unmodified example file as a module (not as __main__) under the
kern.warp.run aliases and runs the loop of its ``__main__`` block with the
graphs, so the CUDA path's capture of Tape.backward, copies and fills is
exercised without a GPU.  It prints the same "Iteration N loss: X" lines.

    graphs.py EXAMPLE.py --device D --num-frames N --segment-size S
              --pressure-iterations P --train-iters T [--headless]
"""
import argparse
import os
import runpy
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
import kern.warp.run as run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("script")
ap.add_argument("--device", default="cpu")
ap.add_argument("--num-frames", type=int, required=True)
ap.add_argument("--segment-size", type=int, default=None)
ap.add_argument("--pressure-iterations", type=int, required=True)
ap.add_argument("--train-iters", type=int, required=True)
ap.add_argument("--headless", action="store_true")
a = ap.parse_args()

run.install()
import warp as wp  # noqa: E402  (kern.warp)
from kern.warp import examples  # noqa: E402
examples._script[0] = a.script
g = runpy.run_path(a.script, run_name="kern_graphs")

with wp.ScopedDevice(a.device):
    e = g["Example"](sim_steps=a.num_frames, pressure_iterations=a.pressure_iterations,
                     segment_size=a.segment_size)
    if e.forward_graph is None:     # not CUDA: capture as the example does there
        with wp.ScopedCapture() as c:
            e.forward()
        e.forward_graph = c.graph
        with wp.ScopedCapture() as c:
            e.backward()
        e.backward_graph = c.graph
        with wp.ScopedCapture() as c:
            e.tape.zero()
        e.zero_tape_graph = c.graph
    for it in range(a.train_iters):
        wp.capture_launch(e.forward_graph)
        wp.capture_launch(e.backward_graph)
        e.optimizer.step([e.vx_arrays[0].grad.flatten(), e.vy_arrays[0].grad.flatten()])
        wp.capture_launch(e.zero_tape_graph)
        print(f"Iteration {it:05d} loss: {e.loss.numpy()[0]:.6f}")
