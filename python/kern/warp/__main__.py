"""python3 -m kern.warp SCRIPT.py [ARGS...]: runs a Warp script unmodified
on kern.warp (kern/warp/run.py)."""
import sys

from .run import main

sys.exit(main())
