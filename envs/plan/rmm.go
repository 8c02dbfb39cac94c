package plan

// rmmSiteCustomize is baked into RAPIDS images (as
// /opt/devenv/extra/sitecustomize.py, on PYTHONPATH): when GPU placement
// gave the service only part of a shared GPU, every Python process limits
// RMM's pool to that share, so a notebook cannot take the memory the other
// services on the GPU were promised.
const rmmSiteCustomize = `# Written by devenv. Limits the RMM memory pool to this service's share of
# a shared GPU (DEVENV_RMM_POOL_LIMIT_BYTES, set by devenv's GPU placement).
import os as _os

_limit = _os.environ.get("DEVENV_RMM_POOL_LIMIT_BYTES")
if _limit:
    try:
        import rmm as _rmm

        _rmm.reinitialize(pool_allocator=True, maximum_pool_size=int(_limit))
    except Exception as _e:  # never stop the interpreter over it
        import sys as _sys

        print("devenv: could not limit the RMM pool to %s bytes: %s" % (_limit, _e), file=_sys.stderr)
`

// extraDir is where images keep devenv's extra files.
const extraDir = "/opt/devenv/extra"
