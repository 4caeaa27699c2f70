"""How Django writes dates and times where the portal does not write them itself (the
admin's lists and read-only fields): as the pages do, Pennsylvania time with its zone."""
