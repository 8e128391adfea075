"""The example scenarios and campaigns, shipped in the package as `pbem.resources.examples` (see pbem/resources)."""
