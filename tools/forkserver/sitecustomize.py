"""Make ``forkserver`` the default start method of :mod:`multiprocessing`, as it is on Linux
from Python 3.14 (3.11-3.13 fork), in every Python process started with this folder on
``PYTHONPATH``: ``.ci/run`` runs the process-pool tests, and the commands they start in
subprocesses, this way too."""

import multiprocessing

multiprocessing.set_start_method("forkserver", force=True)
