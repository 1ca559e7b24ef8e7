"""Where spend comes from (``providers``): none, a file, the shipped sample or Cost Explorer."""
