"""Test-wide settings for every folder under tests/.

Hypothesis' per-example deadline measures the machine more than the code on a shared 2-core CI
box, so it is off everywhere; example counts stay with each test.
"""

from hypothesis import settings

settings.register_profile("bpe-lens", deadline=None, print_blob=True)
settings.load_profile("bpe-lens")
