"""bucketlint oracle: test tooling that records real Spark behaviour as fixtures.

Not part of the bucketlint binary. See oracle/README.md.
"""
