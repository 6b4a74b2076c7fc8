import os

from hypothesis import HealthCheck, settings

# "ci": deterministic and bounded, so CI time is predictable; "dev": more examples locally.
settings.register_profile(
    "ci", max_examples=200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
