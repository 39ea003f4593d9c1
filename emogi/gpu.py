"""Is there a GPU here? The workflow asks once at start-up to choose fresh or archived measurements."""

import shutil
import subprocess


def detect_gpu():
    """Return (True, "GPU 0: NVIDIA H100 ...") when nvidia-smi lists a GPU, else (False, reason)."""
    if shutil.which("nvidia-smi") is None:
        return False, "nvidia-smi not found"
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        return False, f"nvidia-smi failed: {err}"
    gpus = [line for line in out.stdout.splitlines() if line.startswith("GPU ")]
    if out.returncode != 0 or not gpus:
        return False, f"nvidia-smi lists no GPU (exit {out.returncode}: {(out.stderr or out.stdout).strip()[:200]})"
    return True, gpus[0]
