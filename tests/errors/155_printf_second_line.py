# expect: 9:3: error: bad conversion '%h' in the wp.printf() format: incomplete conversion at the end of the format
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("""x
y %h""")
