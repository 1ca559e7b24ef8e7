"""Data files shipped with the service (the sample spend for ``GPUOPS_SPEND=sample``)."""
