# expect: 8:18: error: bad conversion '%l5' in the wp.printf() format: expected a conversion letter (one of diuxXoc eEfFgGaA) after the length modifier
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    wp.printf("%l5d\n", i)
