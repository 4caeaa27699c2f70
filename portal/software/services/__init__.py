"""The game software's services: what changes its records, each in one transaction."""
