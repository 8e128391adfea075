"""pbem's report templates, shipped in the package as `pbem.resources.templates` (see pbem/resources)."""
