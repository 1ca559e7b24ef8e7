"""Jobs after launch: following them to the end and pricing them (``tracker``), and stopping them (``stopping``)."""
